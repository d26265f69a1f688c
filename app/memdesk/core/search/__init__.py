"""Finding memories: FTS5 retrieval with rare words first, statistics scoped to the filters, word
frequency, the structured filters and dates in queries, neighbours of a task, decay, related
words (`data/concepts.txt`), and what each search records (recalls, the retrieval log).

May import the basics only: every other room searches through it.
"""
