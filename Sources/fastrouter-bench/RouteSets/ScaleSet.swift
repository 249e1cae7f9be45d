/// Generated sets of any size, for how build time, memory and lookups scale with route count.
///
/// Routes come in groups under `/<service>/<resource>`, as in a large API gateway: each group
/// always has the collection route and, with probability 3/4 each, ten more of this mix
/// (static 4, plain placeholder 3, built-in constraint 2, PCRE2 constraint 1, wildcard 1):
///
///     /billing-3/invoices                      /billing-3/invoices/:id
///     /billing-3/invoices/new                  /billing-3/invoices/:id/history
///     /billing-3/invoices/search               /billing-3/invoices/:id/members/:memberId
///     /billing-3/invoices/export.csv           /billing-3/invoices/{id:int}/edit
///     /billing-3/invoices/by-slug/{slug:[a-z0-9-]+}
///     /billing-3/invoices/{uuid:uuid}/versions/{version:uint}
///     /billing-3/invoices/files/*path
///
/// Services draw 4 to 16 resources each (8.5 routes per resource on average), so the first
/// level fans out to about one literal per 85 routes. Request URLs are a seeded uniform sample
/// of the routes, in random order, as many for every size (a smaller set has each route at
/// least once).
enum ScaleSet {
    static let services = [
        "billing", "accounts", "search", "catalog", "orders", "shipping", "inventory", "payments", "identity",
        "reports", "messaging", "media", "analytics", "support", "pricing", "reviews", "loyalty", "ads",
        "partners", "compliance", "audit", "storage", "compute", "network", "dns", "mail", "calendar",
        "contacts", "tasks", "docs", "sheets", "slides", "forms", "sites", "maps", "photos", "music", "video",
        "news", "weather",
    ]
    static let resources = [
        "invoices", "customers", "subscriptions", "products", "prices", "coupons", "orders", "carts", "items",
        "users", "groups", "roles", "permissions", "sessions", "tokens", "keys", "projects", "teams", "members",
        "comments", "posts", "threads", "messages", "attachments", "files", "folders", "albums", "tracks",
        "playlists", "events", "calendars", "tasks", "labels", "milestones", "releases", "builds", "deployments",
        "alerts", "incidents", "metrics", "logs", "traces", "dashboards", "widgets", "reports", "exports",
        "imports", "jobs", "queues", "topics", "webhooks", "domains", "certificates", "regions", "zones",
        "volumes", "snapshots", "images", "networks", "addresses",
    ]

    /// The eleven route shapes of a group, in the order above.
    enum Template: UInt8, CaseIterable {
        case collection, new, search, export, item, history, member, edit, version, slug, files

        func pattern(prefix: String) -> String {
            switch self {
            case .collection: return prefix
            case .new: return prefix + "/new"
            case .search: return prefix + "/search"
            case .export: return prefix + "/export.csv"
            case .item: return prefix + "/:id"
            case .history: return prefix + "/:id/history"
            case .member: return prefix + "/:id/members/:memberId"
            case .edit: return prefix + "/{id:int}/edit"
            case .version: return prefix + "/{uuid:uuid}/versions/{version:uint}"
            case .slug: return prefix + "/by-slug/{slug:[a-z0-9-]+}"
            case .files: return prefix + "/files/*path"
            }
        }

        /// A URL for this shape and the pairs it must capture.
        func request(prefix: String, random: inout SeededGenerator) -> (url: String, parameters: [Parameter]) {
            // Tokens start with a letter so they never equal a literal sibling or a number.
            func token() -> String { "k" + random.token(length: 7, alphabet: SeededGenerator.lowercaseAlphanumeric) }
            switch self {
            case .collection, .new, .search, .export:
                return (pattern(prefix: prefix), [])
            case .item:
                let id = token()
                return ("\(prefix)/\(id)", [Parameter(name: "id", value: id)])
            case .history:
                let id = token()
                return ("\(prefix)/\(id)/history", [Parameter(name: "id", value: id)])
            case .member:
                let id = token(), member = token()
                return ("\(prefix)/\(id)/members/\(member)",
                        [Parameter(name: "id", value: id), Parameter(name: "memberId", value: member)])
            case .edit:
                let id = String(random.int(below: 10_000_000))
                return ("\(prefix)/\(id)/edit", [Parameter(name: "id", value: id)])
            case .version:
                let uuid = random.uuid(), version = String(random.int(below: 1000))
                return ("\(prefix)/\(uuid)/versions/\(version)",
                        [Parameter(name: "uuid", value: uuid), Parameter(name: "version", value: version)])
            case .slug:
                let slug = "\(random.pick(ScaleSet.resources))-\(random.int(below: 100_000))-notes"
                return ("\(prefix)/by-slug/\(slug)", [Parameter(name: "slug", value: slug)])
            case .files:
                let path = "docs/\(2015 + random.int(below: 11))/report-\(random.int(below: 1000)).pdf"
                return ("\(prefix)/files/\(path)", [Parameter(name: "path", value: path)])
            }
        }
    }

    /// Where one generated route came from, kept compact so a million of them stay small.
    private struct Origin {
        var service: Int32
        var resource: Int16
        var template: Template
    }

    /// A set of exactly `count` routes and `requestLimit` request URLs.
    static func make(count: Int, requestLimit: Int = 10_000) -> RouteSet {
        let seed: UInt64 = 0xFA57_2007_E500_0000 ^ UInt64(count)
        var random = SeededGenerator(seed: seed)
        var routes: [RouteSpec] = []
        var origins: [Origin] = []
        routes.reserveCapacity(count)
        origins.reserveCapacity(count)
        var service: Int32 = 0
        generation: while true {
            var pool = resources
            pool.shuffle(using: &random)
            let resourceCount = 4 + random.int(below: 13)
            for resourceIndex in 0..<resourceCount {
                let resource = Int16(resources.firstIndex(of: pool[resourceIndex])!)
                let prefix = self.prefix(service: service, resource: resource)
                for template in Template.allCases where template == .collection || random.chance(0.75) {
                    guard routes.count < count else { break generation }
                    routes.append(RouteSpec(pattern: template.pattern(prefix: prefix)))
                    origins.append(Origin(service: service, resource: resource, template: template))
                }
            }
            service += 1
        }

        // Every set of a run gets the same number of request URLs, so that a ratio between two
        // sizes measures the table's size alone: a loop over 1 000 URLs against one over 10 000
        // differs by itself (the branch predictor learns the shorter loop, and its URLs stay in
        // the first-level cache). A set smaller than that has every route once, then a uniform
        // sample for the rest, each URL with values of its own.
        var picked: [Int]
        if count <= requestLimit {
            picked = Array(0..<count) + (count..<requestLimit).map { _ in random.int(below: count) }
            picked.shuffle(using: &random)
        } else {
            picked = (0..<requestLimit).map { _ in random.int(below: count) }
        }
        let requests = picked.map { index -> Request in
            let origin = origins[index]
            let (url, parameters) = origin.template.request(
                prefix: prefix(service: origin.service, resource: origin.resource), random: &random)
            return Request(url: url, route: index, parameters: parameters, pathParameterCount: parameters.count)
        }
        return RouteSet(name: "scale-\(label(count))", summary: "\(count) generated routes", kind: .scale,
                        routes: routes, requests: requests,
                        origin: "ScaleSet.make(count: \(count)), seed 0x\(String(seed, radix: 16))")
    }

    static func label(_ count: Int) -> String {
        if count >= 1_000_000 && count % 1_000_000 == 0 { return "\(count / 1_000_000)M" }
        if count >= 1000 && count % 1000 == 0 { return "\(count / 1000)k" }
        return String(count)
    }

    private static func prefix(service: Int32, resource: Int16) -> String {
        let base = services[Int(service) % services.count]
        let round = Int(service) / services.count
        let name = round == 0 ? base : "\(base)-\(round)"
        return "/\(name)/\(resources[Int(resource)])"
    }
}
