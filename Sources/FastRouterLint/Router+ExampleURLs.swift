import FastRouter

extension Router {
    /// For every registered route, in registration order, a URL it answers first, or `nil` when
    /// no URL built from sample values reaches it first (a route shadowed by others, or one whose
    /// constraints accept none of the samples).
    ///
    /// Placeholders get sample values (`1`, `42`, `a`, `abc`, a UUID, …) that their constraints
    /// accept, a wildcard one segment, a web route accepting any host `example.com` (a suffix rule
    /// `www` before its suffix). Each URL is checked with a real lookup: the route itself, not just
    /// one with the same id, is its best candidate. For a route with methods, the lookup is a
    /// request with one of them (routes of one path for different methods each get the URL);
    /// ``exampleRequests()`` says which. Meant for tests, documentation and load generation from
    /// a route list.
    ///
    /// ```swift
    /// let router = Router<String>()
    /// try router.add("/users/{id:int}", value: "user")
    /// router.exampleURLs()[0].url   // "/users/1"
    /// ```
    /// - Returns: one (route, URL or `nil`) pair per registered route, in registration order.
    /// - Complexity: up to (expansions × samples × 2) lookups per route and method tried, each
    ///   URL tried once per method; takes the writer lock briefly at the start.
    public func exampleURLs() -> [(route: RouteDescription, url: String?)] {
        exampleRequests().map { ($0.route, $0.url) }
    }

    /// ``exampleURLs()`` with the method of the request each URL was checked with: `nil` for a
    /// lookup without a method, else the method for which the route answers the URL first.
    ///
    /// A route with methods is tried with each of them, in `Allow` order. A route for any method
    /// is tried without a method first, then with each method the routes name (a better route
    /// for some methods may take a URL's lookups without a method), then with a method no route
    /// names (a standard one other than HEAD when one is left), which only routes for any
    /// method accept.
    ///
    /// ```swift
    /// let router = Router<String>()
    /// try router.add("/users/:id", methods: [.get], value: "show")
    /// try router.add("/users/:id", methods: [.delete], value: "delete")
    /// router.exampleRequests().map { "\($0.method!) \($0.url!)" }   // ["GET /users/1", "DELETE /users/1"]
    /// ```
    /// - Returns: one (route, method, URL) triple per registered route, in registration order;
    ///   method and URL are `nil` when no URL reaches the route first.
    /// - Complexity: as ``exampleURLs()``.
    public func exampleRequests() -> [(route: RouteDescription, method: HTTPMethod?, url: String?)] {
        let analysis = RouteAnalysis(core: core)
        let scratch = MatchScratch()
        return analysis.entries.indices.map { index in
            let example = analysis.firstChoiceExample(for: index, scratch: scratch)
            return (analysis.entries[index].description, example?.method, example?.url)
        }
    }
}

extension RouteAnalysis {
    /// A request for which the route of entry `index` is the best candidate, trying each method
    /// of `methods` (by default ``methodsToTry(_:)``; `nil` for a lookup without a method) with
    /// each URL built from the samples in turn; `nil` when none is. `scratch` serves every lookup.
    func firstChoiceExample(for index: Int, methods: [HTTPMethod?]? = nil,
                            scratch: MatchScratch) -> (method: HTTPMethod?, url: String)? {
        let entry = entries[index]
        // URLs are built as the lookups ask for them and kept for the next method: most routes
        // are first for the first URL with the first method.
        var recipes = sampleRecipes(for: entry).makeIterator()
        var urls: [String] = []
        var built = Set<String>()
        func url(at position: Int) -> String? {
            while urls.count <= position {
                guard let recipe = recipes.next() else { return nil }
                if let url = exampleURL(for: recipe.expansion, alsoIn: nil, rotation: recipe.rotation,
                                        wildcardValue: recipe.wildcardValue),
                   built.insert(url).inserted {
                    urls.append(url)
                }
            }
            return urls[position]
        }
        for method in methods ?? methodsToTry(entry) {
            var position = 0
            while let url = url(at: position) {
                if bestRoute(url, method: method, scratch: scratch) == entry.sequence { return (method, url) }
                position += 1
            }
        }
        return nil
    }

    /// The methods a route's example requests are tried with: its own methods, or for a route
    /// for any method none (`nil`), the methods routes name, then one no route names.
    private func methodsToTry(_ entry: Entry) -> [HTTPMethod?] {
        guard entry.acceptsAnyMethod else { return entry.methods }
        return [nil] + allowOrder(methodRank.keys) + [unnamedMethod()]
    }

    /// How to build each sample URL of `entry`: an expansion, where the samples start, and
    /// whether a trailing wildcard gets a segment; each expansion in turn.
    private func sampleRecipes(for entry: Entry) -> [(expansion: Expansion, rotation: Int, wildcardValue: Bool)] {
        var recipes: [(expansion: Expansion, rotation: Int, wildcardValue: Bool)] = []
        for position in entry.expansions {
            let expansion = expansions[position]
            // Without placeholders every rotation of the samples builds the same URL.
            let literalOnly = expansion.precedence.ranks.allSatisfy {
                $0 == SegmentRank.literal.rawValue || $0 == SegmentRank.end.rawValue || $0 == SegmentRank.wildcard.rawValue
            }
            // A wildcard given a segment first: a zero-segment URL is often some other route's.
            for wildcardValue in expansion.wildcard ? [true, false] : [false] {
                let rotations = literalOnly && !wildcardValue ? 1 : Self.witnesses.count
                for rotation in 0..<rotations { recipes.append((expansion, rotation, wildcardValue)) }
            }
        }
        return recipes
    }

    /// The registration order (``Entry/sequence``) of the route that answers a request with
    /// `method` (none when `nil`) for `url` first, or `nil` when none does.
    private func bestRoute(_ url: String, method: HTTPMethod?, scratch: MatchScratch) -> UInt64? {
        // The scratch's results point into the URL's bytes: read them inside the closure.
        withUTF8(url) { bytes in
            withUTF8(method?.rawValue ?? "") { methodBytes in
                // An empty method is a lookup without one.
                let sequence = core.match(method: methodBytes, url: bytes, into: scratch) == .found ? scratch.routeSequence : nil
                scratch.clearResult()
                scratch.slot.drop()
                return sequence
            }
        }
    }
}
