"""The memory graph's choice of what to show."""

from __future__ import annotations


def test_the_graph_of_a_large_store_shows_its_links(service):
    """#31 item 12: at 100k memories with 2,000 links the Graph showed "related 0": the most
    recent memories it shows rarely link to each other, only to older ones."""
    made = service.add_many([{"content": f"note {n} about topic{n}"} for n in range(700)])
    ids = [m["id"] for m in made]
    for n in range(20):  # the newest link to the oldest
        service.link(ids[-1 - n], ids[n])
    graph = service.graph(hubs=())
    related = [e for e in graph["edges"] if e[2] == "related"]
    assert len(related) == 20
    assert len(graph["nodes"]) == 500
    assert graph["left_out"] == 200


def test_a_project_and_a_tag_of_the_same_name_are_told_apart(service):
    """A window tryout: hubs "api" and "api" overlapped, one a project, one a tag."""
    service.add("The api deploys on Tuesdays", project="api", tags=["api"])
    hubs = {n["id"]: n["label"] for n in service.graph()["nodes"] if n.get("hub")}
    assert hubs == {"project:api": "api", "tag:api": "#api"}
