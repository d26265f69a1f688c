"""The List view: the memory table, its model and loader, filters, search, the welcome page."""
