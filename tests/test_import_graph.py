"""No import cycle anywhere in src/thousand (docs/architecture.md "The server's rooms").

lint-imports keeps the layers of the server's rooms (pyproject.toml); a cycle elsewhere —
two modules of one folder that import each other — breaks no layer, so this test asks the
import graph itself (grimp, which import-linter is built on) for its strongly connected
components.  Every import counts: one inside a function, or under ``TYPE_CHECKING``, ties
two modules as much as one at the top.
"""

from __future__ import annotations

import grimp  # import-linter's own graph (a dependency of the dev group's import-linter)


def _cycles(graph: grimp.ImportGraph) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative:
    no recursion limit to meet)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(
                        graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[module] = min(low[module], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The finder itself: two modules that import each other are one component, a module
    imported by them is not in it."""

    class Graph:
        modules = frozenset({"a", "b", "c"})

        @staticmethod
        def find_modules_directly_imported_by(module: str) -> set[str]:
            return {"a": {"b", "c"}, "b": {"a"}, "c": set()}[module]

    assert _cycles(Graph()) == [frozenset({"a", "b"})]  # type: ignore[arg-type]


def test_src_thousand_has_no_import_cycle() -> None:
    graph = grimp.build_graph("thousand", cache_dir=None)
    found = [sorted(c) for c in _cycles(graph)]
    assert not found, f"import cycles: {found}"


def test_the_live_tables_import_no_feature() -> None:
    """The live tables announce what happens (``Hub.events``) and call no feature: no
    chain of imports leads from them to the site's features, the routes or the cluster."""
    graph = grimp.build_graph("thousand", cache_dir=None)
    for higher in ("thousand.server.features", "thousand.server.routes",
                   "thousand.server.cluster", "thousand.server.app"):
        chains = graph.find_shortest_chains(importer="thousand.server.live", imported=higher)
        assert not chains, (higher, chains)
