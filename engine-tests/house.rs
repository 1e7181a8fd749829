//! The shape of the house, checked from the source: no import circle between the library's
//! files.
//!
//! Every file of the library (`src/`, less the binary's own files) is a module; a file that
//! names an item of another module (`use crate::a::b`, `super::c::d`, `crate::e::f(...)` in
//! code) depends on it. A module may use its ancestors freely (a room's `mod.rs` is the front
//! its files share), so those edges are left out; what remains must have no circle: two files
//! that each need the other are one concern split badly, or two concerns tangled.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module's path from the crate root (`["tools", "perft"]`); the root is empty.
type ModPath = Vec<String>;

/// One dependency: the module named and the text that named it (for the report).
#[derive(Clone, Debug)]
struct Edge {
    to: ModPath,
    why: String,
}

/// Every library module with its source (comments removed).
fn library_modules(src: &Path) -> BTreeMap<ModPath, String> {
    let binary_only = binary_modules(&std::fs::read_to_string(src.join("main.rs")).unwrap());
    let mut modules = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).unwrap().with_extension("");
            let mut segments: ModPath =
                relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            if segments == ["main"] || binary_only.contains(&segments[0]) {
                continue;
            }
            if segments.last().is_some_and(|s| s == "mod" || s == "lib") {
                segments.pop();
            }
            modules.insert(segments, strip_comments(&std::fs::read_to_string(&path).unwrap()));
        }
    }
    modules
}

/// The modules `main.rs` declares: the binary's, not the library's.
fn binary_modules(main: &str) -> BTreeSet<String> {
    main.lines()
        .filter_map(|l| l.trim().strip_prefix("mod ").and_then(|r| r.strip_suffix(';')))
        .map(|name| name.trim().to_string())
        .collect()
}

/// The text without `//` comments (doc comments name items for people, not the compiler).
fn strip_comments(text: &str) -> String {
    text.lines().map(|l| l.find("//").map_or(l, |i| &l[..i])).collect::<Vec<_>>().join("\n")
}

/// The full paths a `use` tree names, `a::{b, c::{d, e}}` giving `a::b`, `a::c::d`, `a::c::e`.
fn expand_use_tree(tree: &str, prefix: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let leaf = tree.split(" as ").next().unwrap_or(tree).trim();
        if !leaf.is_empty() {
            out.push(format!("{prefix}{leaf}"));
        }
        return;
    };
    let close = tree.rfind('}').filter(|&c| c > open).unwrap_or(tree.len());
    let head = format!("{prefix}{}", &tree[..open]);
    let inner = &tree[open + 1..close];
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand_use_tree(&inner[start..i], &head, out);
                start = i + 1;
            }
            _ => {}
        }
    }
    expand_use_tree(&inner[start..], &head, out);
}

/// Every path a module's source names: those of its `use` statements, expanded, and those
/// written in code from `crate::`, `$crate::` or `super::`.
fn named_paths(source: &str) -> Vec<String> {
    let mut paths = Vec::new();
    // rustfmt starts every `use` statement on a line of its own.
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let after_visibility = ["pub(crate) ", "pub(super) ", "pub ", ""]
            .iter()
            .find_map(|v| trimmed.strip_prefix(v).and_then(|r| r.strip_prefix("use ")));
        if let Some(tree_start) = after_visibility {
            let at = offset + (line.len() - tree_start.len());
            let tree = &source[at..];
            let end = tree.find(';').unwrap_or(tree.len());
            expand_use_tree(&tree[..end].split_whitespace().collect::<Vec<_>>().join(" "), "", &mut paths);
        }
        offset += line.len();
    }
    for root in ["crate::", "super::"] {
        let mut rest = source;
        while let Some(at) = find_word(rest, root) {
            let chain: String =
                rest[at..].chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
            paths.push(chain.trim_end_matches(':').to_string());
            rest = &rest[at + root.len()..];
        }
    }
    paths
}

/// Where `word` starts in `text` as a word of its own (not inside a longer name), if it does.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let at = from + i;
        let before = text[..at].chars().next_back();
        if before.is_none_or(|c| !(c.is_alphanumeric() || c == '_')) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// The module a path written in module `from` names: the longest known module its segments
/// lead to, or `None` for a path outside the crate (`std::`, another crate).
fn resolve(path: &str, from: &ModPath, known: &BTreeSet<ModPath>) -> Option<ModPath> {
    let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let (mut base, mut rest): (ModPath, &[&str]) = match segments.first() {
        Some(&"crate") | Some(&"$crate") => (Vec::new(), &segments[1..]),
        Some(&"self") => (from.clone(), &segments[1..]),
        Some(&"super") => {
            let mut base = from.clone();
            let mut rest = &segments[..];
            while rest.first() == Some(&"super") {
                base.pop();
                rest = &rest[1..];
            }
            (base, rest)
        }
        Some(first) => {
            // A path from a child module of this one (`use rules::Rules` in `game/mod.rs`).
            let mut child = from.clone();
            child.push((*first).to_string());
            if !known.contains(&child) {
                return None;
            }
            (from.clone(), &segments[..])
        }
        None => return None,
    };
    while let Some((first, tail)) = rest.split_first() {
        let mut next = base.clone();
        next.push((*first).to_string());
        if !known.contains(&next) {
            break;
        }
        base = next;
        rest = tail;
    }
    Some(base)
}

/// The dependencies of every module, less those on itself and its ancestors.
fn dependencies(modules: &BTreeMap<ModPath, String>) -> BTreeMap<ModPath, Vec<Edge>> {
    let known: BTreeSet<ModPath> = modules.keys().cloned().collect();
    let mut graph = BTreeMap::new();
    for (module, source) in modules {
        let mut edges: Vec<Edge> = Vec::new();
        for path in named_paths(source) {
            let Some(to) = resolve(&path, module, &known) else { continue };
            if module.starts_with(&to) || edges.iter().any(|e| e.to == to) {
                continue;
            }
            edges.push(Edge { to, why: path });
        }
        graph.insert(module.clone(), edges);
    }
    graph
}

/// The circles of a dependency graph: for each edge that lies on one, the way back, as
/// `a -> b -> ... -> a` with the text of each step.
fn circles(graph: &BTreeMap<ModPath, Vec<Edge>>) -> Vec<String> {
    let mut found = Vec::new();
    let mut seen_sets: BTreeSet<BTreeSet<ModPath>> = BTreeSet::new();
    for (from, edges) in graph {
        for edge in edges {
            if let Some(back) = way(graph, &edge.to, from) {
                let mut steps = vec![(from.clone(), edge.clone())];
                steps.extend(back);
                let set: BTreeSet<ModPath> = steps.iter().map(|(m, _)| m.clone()).collect();
                if seen_sets.insert(set) {
                    let text: Vec<String> =
                        steps.iter().map(|(m, e)| format!("{} ({})", m.join("::"), e.why)).collect();
                    found.push(format!("{} -> {}", text.join(" -> "), from.join("::")));
                }
            }
        }
    }
    found
}

/// A shortest way from `start` to `goal` along the graph's edges: each module left and the
/// edge taken, or `None`.
fn way(
    graph: &BTreeMap<ModPath, Vec<Edge>>,
    start: &ModPath,
    goal: &ModPath,
) -> Option<Vec<(ModPath, Edge)>> {
    let mut came_from: BTreeMap<ModPath, (ModPath, Edge)> = BTreeMap::new();
    let mut frontier = vec![start.clone()];
    let mut visited = BTreeSet::from([start.clone()]);
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for module in frontier {
            if &module == goal {
                let mut steps = Vec::new();
                let mut at = module;
                while let Some((prev, edge)) = came_from.get(&at) {
                    steps.push((prev.clone(), edge.clone()));
                    at = prev.clone();
                }
                steps.reverse();
                return Some(steps);
            }
            for edge in graph.get(&module).into_iter().flatten() {
                if visited.insert(edge.to.clone()) {
                    came_from.insert(edge.to.clone(), (module.clone(), edge.clone()));
                    next.push(edge.to.clone());
                }
            }
        }
        frontier = next;
    }
    None
}

fn path(text: &str) -> ModPath {
    text.split("::").filter(|s| !s.is_empty()).map(str::to_string).collect()
}

#[test]
fn the_library_has_no_import_circle() {
    let modules = library_modules(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let graph = dependencies(&modules);
    // The reading itself works: it sees the library's files and edges every build has.
    assert!(modules.len() > 100, "{} modules read", modules.len());
    let edges: usize = graph.values().map(Vec::len).sum();
    assert!(edges > 300, "only {edges} dependencies read");
    let uses = |from: &str, to: &str| graph[&path(from)].iter().any(|e| e.to == path(to));
    assert!(uses("protocol::terminal", "tools::perft"), "protocol::terminal -> tools::perft not seen");
    assert!(uses("search::threads", "search::negamax"), "search::threads -> search::negamax not seen");
    assert!(!modules.contains_key(&path("usage")), "the binary's own files are not the library's");
    let found = circles(&graph);
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn use_trees_expand_to_every_path_they_name() {
    let mut out = Vec::new();
    expand_use_tree("crate::game::{Rules, rules::{self, winner}, Node as N}", "", &mut out);
    assert_eq!(
        out,
        ["crate::game::Rules", "crate::game::rules::self", "crate::game::rules::winner", "crate::game::Node"]
    );
    let source = "pub use x::y;\nfn f() { crate::tools::perft::summary_line(1); super::negamax::go(); }";
    let named = named_paths(source);
    assert!(named.contains(&"x::y".to_string()), "{named:?}");
    assert!(named.contains(&"crate::tools::perft::summary_line".to_string()), "{named:?}");
    assert!(named.contains(&"super::negamax::go".to_string()), "{named:?}");
}

#[test]
fn paths_resolve_to_the_modules_they_lead_to() {
    let known: BTreeSet<ModPath> =
        ["", "game", "game::rules", "search", "search::negamax", "search::threads"]
            .iter()
            .map(|p| path(p))
            .collect();
    let here = path("search::threads");
    assert_eq!(resolve("super::negamax::Limits", &here, &known), Some(path("search::negamax")));
    assert_eq!(resolve("crate::game::Rules", &here, &known), Some(path("game")));
    assert_eq!(resolve("crate::game::rules::winner", &here, &known), Some(path("game::rules")));
    assert_eq!(resolve("std::sync::Arc", &here, &known), None);
    assert_eq!(resolve("rules::Rules", &path("game"), &known), Some(path("game::rules")));
}

#[test]
fn a_circle_is_found_and_a_use_of_an_ancestor_is_not_one() {
    let modules: BTreeMap<ModPath, String> = [
        ("search", "pub mod negamax; pub mod threads; use negamax::go;"),
        ("search::negamax", "use super::threads::spawn; use super::Limits;"),
        ("search::threads", "use crate::search::negamax::go;"),
        ("game", "use crate::search::Limits;"),
    ]
    .iter()
    .map(|(p, s)| (path(p), s.to_string()))
    .collect();
    let found = circles(&dependencies(&modules));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("search::negamax") && found[0].contains("search::threads"), "{found:?}");
    let acyclic: BTreeMap<ModPath, String> = modules
        .into_iter()
        .map(|(p, s)| if p == path("search::negamax") { (p, String::new()) } else { (p, s) })
        .collect();
    assert_eq!(circles(&dependencies(&acyclic)), Vec::<String>::new());
}
