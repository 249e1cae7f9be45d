/// App deep links and universal links: what a mobile app or its web front registers.
///
/// Two custom schemes (`myapp://`, `acme://`, whose host is the first path segment), web routes
/// on an exact host, on `*.example.com` and on any host, and global routes that URLs of every
/// scheme fall back to. The routes use built-in constraints, PCRE2 constraints, wildcards,
/// optional groups and one priority; the URLs carry query strings, fragments, percent-escapes,
/// ports, userinfo, upper-case schemes and hosts, and repeated or trailing slashes.
enum DeepLinkSet {
    /// A route's template, its priority, and further URLs (templates too) that it must answer.
    /// `shadowed` marks a route whose own URL another route wins: it is registered, but its
    /// template's URL is not a request.
    struct Link {
        var template: String
        var priority: Int32 = 0
        var also: [String] = []
        var shadowed = false

        init(_ template: String, priority: Int32 = 0, also: [String] = [], shadowed: Bool = false) {
            self.template = template
            self.priority = priority
            self.also = also
            self.shadowed = shadowed
        }
    }

    static func make() throws(LinkTemplate.SyntaxError) -> RouteSet {
        var routes: [RouteSpec] = []
        var requests: [Request] = []
        for link in links + apiLinks() {
            let primary = try LinkTemplate(link.template)
            let index = routes.count
            routes.append(RouteSpec(pattern: primary.pattern, priority: link.priority))
            for template in (link.shadowed ? [] : [link.template]) + link.also {
                let request = template == link.template ? primary : try LinkTemplate(template)
                requests.append(Request(url: request.url, route: index, parameters: request.parameters,
                                        pathParameterCount: request.pathParameterCount))
            }
        }
        return RouteSet(name: "deep-links", summary: "app deep links and universal links", kind: .deepLink,
                        routes: routes, requests: requests, origin: "hand-written (DeepLinkSet.swift)")
    }

    static let uuidA = "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b"
    static let uuidB = "9b2f6c4e-1d3a-4b5c-8e7f-0a1b2c3d4e5f"
    static let uuidC = "c56a4180-65aa-42ec-a945-5fd21dec0538"

    static let links: [Link] = [
        // myapp:// — a social app. The host is the first segment.
        Link("myapp://home"),
        Link("myapp://feed"),
        Link("myapp://feed/{tab:alpha=trending}"),
        Link("myapp://users/{id:int=42}"),
        Link("myapp://users/:username=octocat"),
        Link("myapp://users/{id:int=42}/followers", also: ["MyApp://Users/{id:int=42}/followers"]),
        Link("myapp://users/{id:int=42}/following"),
        Link("myapp://users/:username=octocat/posts"),
        Link("myapp://users/{id:int=7}/posts"),
        Link("myapp://users/{id:int=42}/posts/{postId:uuid=\(uuidA)}"),
        Link("myapp://posts/new"),
        Link("myapp://posts/{id:uuid=\(uuidB)}", also: ["myapp://posts/{id:uuid=9B2F6C4E-1D3A-4B5C-8E7F-0A1B2C3D4E5F}#comments"]),
        Link("myapp://posts/{id:uuid=\(uuidB)}/comments"),
        Link("myapp://posts/{id:uuid=\(uuidB)}/comments/{commentId:int=981}"),
        Link("myapp://posts/{id:uuid=\(uuidA)}/edit"),
        Link("myapp://tags/{tag:[a-z0-9-]+=swift-concurrency}"),
        Link("myapp://tags/{tag:[a-z0-9-]+=ios}/posts(/page/{page:int=3})",
             also: ["myapp://tags/{tag:[a-z0-9-]+=ios}/posts(!/page/{page:int=3})"]),
        Link("myapp://search?q=red+shoes&sort=recent"),
        Link("myapp://search/{scope:(people|posts|tags)=people}?q=anna%20k"),
        Link("myapp://settings"),
        Link("myapp://settings/{section:alpha=privacy}", also: ["myapp://settings//{section:alpha=privacy}/"]),
        Link("myapp://settings/notifications/{channel:(email|push|sms)=push}"),
        Link("myapp://messages"),
        Link("myapp://messages/{threadId:hex=5f3a9c}"),
        Link("myapp://messages/{threadId:hex=5f3a9c}/media/{mediaId:uuid=\(uuidC)}"),
        Link("myapp://notifications(/{filter:(all|mentions|follows)=mentions})",
             also: ["myapp://notifications(!/{filter:(all|mentions|follows)=mentions})"]),
        Link("myapp://camera(/{mode:(photo|video|portrait)=video})"),
        Link("myapp://stories/{userId:int=42}/{storyId:int=7}"),
        Link("myapp://live/{streamId:[A-Za-z0-9_-]{11}=dQw4w9WgXcQ}"),
        Link("myapp://groups/{slug:[a-z0-9-]+=ios-devs}"),
        Link("myapp://groups/{slug:[a-z0-9-]+=ios-devs}/members"),
        Link("myapp://groups/{slug:[a-z0-9-]+=ios-devs}/events/{eventId:int=3}"),
        Link("myapp://events/{id:int=2024}(/tickets(/{ticketId:uuid=\(uuidC)}))",
             also: ["myapp://events/{id:int=2024}(/tickets(!/{ticketId:uuid=\(uuidC)}))",
                    "myapp://events/{id:int=2025}(!/tickets(/{ticketId:uuid=\(uuidC)}))"]),
        Link("myapp://files/*path=Documents/Q3%20Report.pdf"),
        Link("myapp://share?url=https%3A%2F%2Fexample.com%2Fa%3Fb%3Dc&title=Hello+World"),
        Link("myapp://oauth/callback?code=4%2F0AX4XfWh&state=af0ifjsldkj"),
        Link("myapp://invite/{code:[A-Z0-9]{8}=K7Q2M9XZ}"),
        Link(#"myapp://pay/{amount:float=12.50}/{currency:[A-Z]{3}=EUR}"#),
        Link("myapp://map/{lat:float=-33.8688}/{lng:float=151.2093}"),
        Link("myapp://map/places/{placeId:[A-Za-z0-9_-]{20,}=ChIJN1t_tDeuEmsRUsoyG83frY4}"),
        Link("myapp://products/{sku:alnum=AB12345}"),
        Link("myapp://products/{sku:alnum=AB12345}/reviews(/{page:uint=2})"),
        Link("myapp://orders/{orderId:uint=10023}"),
        Link("myapp://orders/{orderId:uint=10023}/track"),
        Link("myapp://orders/{orderId:uint=10023}/items/{line:int=2}"),
        Link("myapp://cart"),
        Link("myapp://cart/add/{sku:alnum=XY9}?qty=2"),
        Link("myapp://checkout(/{step:(shipping|payment|review)=payment})"),
        Link("myapp://help"),
        Link("myapp://help/*topic=account/reset-password"),
        Link("myapp://about"),
        Link("myapp://legal/{doc:(terms|privacy|cookies)=privacy}"),
        Link("myapp://playlists/{id:int=55}/tracks/{trackId:int=3}"),
        Link("myapp://artists/{artistId:hex=1a2b3c}/albums/{albumId:hex=4d5e}"),
        Link("myapp://podcasts/{show:[a-z0-9-]+=swift-by-sundell}/episodes/{n:uint=123}"),
        Link("myapp://podcasts/{show:[a-z0-9-]+=swift-by-sundell}/episodes/latest"),
        Link("myapp://watch/{videoId:[A-Za-z0-9_-]{11}=dQw4w9WgXcQ}?t=42s"),
        Link("myapp://u/:handle=j%C3%BCrgen"),
        Link("myapp://docs/:name=reports%2F2024"),
        Link("myapp://:section=discover"),
        // A priority beats specificity: the wildcard wins even over the literal below it.
        Link("myapp://beta/*feature=new-editor", priority: 1, also: ["myapp://beta/*feature=settings"]),
        Link("myapp://beta/settings", shadowed: true),

        // acme:// — a second app, with a placeholder host.
        Link("acme://open/{doc:uuid=\(uuidA)}"),
        Link("acme://workspace/{ws:[a-z0-9-]+=design-team}"),
        Link("acme://workspace/{ws:[a-z0-9-]+=design-team}/board/{board:int=12}"),
        Link("acme://workspace/{ws:[a-z0-9-]+=design-team}/board/{board:int=12}/card/{card:[A-Z]+-[0-9]+=DES-142}"),
        Link(#"acme://workspace/{ws:[a-z0-9-]+=design-team}/channel/{channel:[a-z0-9_-]+=general}(/thread/{ts:[0-9]+\.[0-9]+=1712345678.000200})"#,
             also: [#"acme://workspace/{ws:[a-z0-9-]+=design-team}/channel/{channel:[a-z0-9_-]+=random}(!/thread/{ts:[0-9]+\.[0-9]+=1.2})"#]),
        Link("acme://call/{room:[a-z]{3}-[a-z]{4}-[a-z]{3}=abc-defg-hij}"),
        Link("acme://auth?token=eyJ0eXAiOiJKV1Qi.eyJzdWIiOiIxIn0&redirect=acme%3A%2F%2Fhome"),
        Link("acme://home"),
        Link("acme://:action=compose?to=anna%40example.com&subject=Hi+there"),
        Link("acme://settings/*path=profile/photo"),

        // Global routes: no scheme, so every URL can fall back to them.
        Link("/status", also: ["https://example.com/status"]),
        Link("/health"),
        Link("/users/{id:int=42}/avatar", also: ["myapp://users/{id:int=42}/avatar"]),
        Link("/oauth/callback/{provider:alpha=github}?code=xyz", also: ["myapp://oauth/callback/{provider:alpha=github}?code=xyz"]),
        Link("/l/*rest=abc/def"),
        Link("/.well-known/apple-app-site-association"),
        Link("/.well-known/assetlinks.json"),
        Link("/robots.txt"),
        Link("/sitemap.xml"),
        Link("/api/v2/users/{id:int=7}"),
        Link("/api/v2/users/{id:int=7}/repos(/{page:uint=2})", also: ["/api/v2/users/{id:int=7}/repos(!/{page:uint=2})"]),
        Link("/api/v2/search?q=router&limit=10&debug"),
        Link("/app/*path=settings/account", also: ["acme://app/*path=settings/account"]),
        Link("/{lang:[a-z]{2}=de}/help/*topic=billing/invoices"),
        Link("/media/{id:uuid=\(uuidC)}/{size:(small|medium|large)=large}"),
        Link("/"),
        Link(#"/download/{platform:(ios|android|macos)=ios}(/{version:[0-9]+\.[0-9]+\.[0-9]+=17.2.1})"#),
        Link("/unsubscribe/{token:[A-Za-z0-9_-]{16,}=AbCdEf0123456789xyz}"),
        Link("/callback?error=access_denied&error_description=User+denied&&=orphan"),

        // https:// on the exact host example.com.
        Link("https://example.com/", also: ["https://example.com"]),
        Link("https://example.com/about",
             also: ["HTTPS://EXAMPLE.COM/about", "https://example.com=example.com:8443/about",
                    "https://example.com=anna@example.com/about"]),
        Link("https://example.com/pricing", also: ["https://example.com/pricing/"]),
        Link("https://example.com/blog"),
        Link("https://example.com/blog/{slug:[a-z0-9-]+=release-notes}"),
        Link("https://example.com/blog/{year:int=2024}/{month:int=06}/{slug:[a-z0-9-]+=hello-world}"),
        Link("https://example.com/blog/tag/{tag:[a-z0-9-]+=swift}(/page/{page:uint=2})",
             also: ["https://example.com/blog/tag/{tag:[a-z0-9-]+=swift}(!/page/{page:uint=2})"]),
        Link("https://example.com/docs"),
        Link("https://example.com/docs/*path=guides/getting-started.md"),
        Link(#"https://example.com/docs/api/{version:[0-9]+\.[0-9]+=2.1}/*symbol=Router/match"#),
        Link("https://example.com/{handle:@[A-Za-z0-9_]+=@octocat}"),
        Link("https://example.com/{handle:@[A-Za-z0-9_]+=@octocat}/followers"),
        Link("https://example.com/p/{postId:int=123456789}"),
        Link("https://example.com/p/{postId:int=123456789}/comments/{commentId:int=42}"),
        Link("https://example.com/login?next=%2Fsettings%2Fbilling"),
        Link("https://example.com/logout"),
        Link("https://example.com/signup(/{plan:(free|pro|team)=pro})",
             also: ["https://example.com/signup(!/{plan:(free|pro|team)=pro})"]),
        Link("https://example.com/reset-password/{token:[A-Za-z0-9_-]{20,}=Zx8qP2mN5vB7cR1tY4uW9kLs}"),
        Link("https://example.com/verify-email?token=eyJhbGciOi.J9&email=anna%40example.com"),
        Link("https://example.com/invite/{code:[A-Z0-9]{8}=Q4W7E2R9}"),
        Link("https://example.com/settings(/{section:alpha=billing})"),
        Link("https://example.com/orgs/{org:[a-z0-9-]+=acme}"),
        Link("https://example.com/orgs/{org:[a-z0-9-]+=acme}/members"),
        Link("https://example.com/orgs/{org:[a-z0-9-]+=acme}/settings(/{tab:alpha=security})"),
        Link("https://example.com/orgs/{org:[a-z0-9-]+=acme}/projects/{project:[a-z0-9._-]+=website}"),
        Link("https://example.com/orgs/{org:[a-z0-9-]+=acme}/projects/{project:[a-z0-9._-]+=website}/issues(/{number:uint=42})",
             also: ["https://example.com/orgs/{org:[a-z0-9-]+=acme}/projects/{project:[a-z0-9._-]+=website}/issues(!/{number:uint=42})"]),
        Link("https://example.com/orgs/{org:[a-z0-9-]+=acme}/projects/{project:[a-z0-9._-]+=website}/pulls/{number:uint=7}"),
        Link("https://example.com/orgs/{org:[a-z0-9-]+=acme}/projects/{project:[a-z0-9._-]+=website}/tree/{branch:[A-Za-z0-9._-]+=main}/*path=Sources/App/main.swift"),
        Link("https://example.com/orgs/{org:[a-z0-9-]+=acme}/projects/{project:[a-z0-9._-]+=website}/blob/{ref:[0-9a-f]{40}=e72e16c7e42f292c6912e7710c838347ae178b4a}/*path=README.md"),
        Link("https://example.com/search?q=swift+router&type=code&type=issues"),
        Link("https://example.com/s/{shortcode:[A-Za-z0-9]{6}=aZ3kP9}"),
        Link("https://example.com/api/{version:v[0-9]+=v2}/users/{id:int=7}"),
        Link("https://example.com/api/{version:v[0-9]+=v2}/users/{id:int=7}/keys/{keyId:uint=3}"),
        Link("https://example.com/feeds/:file=blog.xml"),
        Link("https://example.com/careers/{team:[a-z-]+=engineering}/{jobId:int=4412}"),
        Link("https://example.com/events/{year:int=2025}/{slug:[a-z0-9-]+=wwdc-meetup}(/register)",
             also: ["https://example.com/events/{year:int=2025}/{slug:[a-z0-9-]+=wwdc-meetup}(!/register)"]),
        Link("https://example.com/help"),
        Link("https://example.com/help/*topic=accounts/two-factor"),

        // https:// on any subdomain of example.com (tenants), at any depth.
        Link("https://*.example.com=acme.example.com/"),
        Link("https://*.example.com=acme.example.com/dashboard",
             also: ["https://*.example.com=eu.acme.example.com/dashboard", "https://*.example.com=ACME.Example.COM/dashboard"]),
        Link("https://*.example.com=acme.example.com/projects/{id:int=311}"),
        Link("https://*.example.com=acme.example.com/projects/{id:int=311}/board(/{view:(kanban|list|calendar)=kanban})"),
        Link("https://*.example.com=acme.example.com/docs/*path=onboarding/first-week.md"),
        Link("https://*.example.com=blog.example.com/about"),
        Link("https://*.example.com=acme.example.com/users/{id:int=5}/settings"),
        Link("https://*.example.com=acme.example.com/login?sso=1"),
        Link("https://*.example.com=acme.example.com/cart"),

        // https:// on the exact host shop.example.com, which beats *.example.com.
        Link("https://shop.example.com/"),
        Link("https://shop.example.com/cart"),
        Link("https://shop.example.com/products/{id:uuid=\(uuidB)}"),
        Link("https://shop.example.com/products/{id:uuid=\(uuidB)}/reviews(/{page:uint=2})"),
        Link("https://shop.example.com/categories/{slug:[a-z0-9-]+=running-shoes}/*filters=size/42/color/blue"),
        Link("https://shop.example.com/checkout/{step:(cart|shipping|payment|confirm)=shipping}"),
        Link("https://shop.example.com/orders/{orderId:[A-Z]{2}[0-9]{8}=EU20250113}"),
        Link("https://shop.example.com/search?q=trail+runner&size=42"),

        // https:// on any host, and http://.
        Link("https://*=example.org/.well-known/security.txt"),
        Link("https://=cdn.example.net/manifest.json"),
        Link("https://*=www.example.org/{locale:[a-z]{2}-[A-Z]{2}=en-US}/*path=store/iphone"),
        Link("http://example.com/*path=index.html", also: ["http://example.com/*path="]),
        Link("http://*=legacy.example.net/ping"),
    ]

    /// A payments-style REST API on api.example.com: twelve resources, eight routes each, ids
    /// with a per-resource prefix checked by a regex.
    static func apiLinks() -> [Link] {
        let resources: [(name: String, prefix: String)] = [
            ("accounts", "acct"), ("invoices", "in"), ("customers", "cus"), ("subscriptions", "sub"),
            ("payment_intents", "pi"), ("refunds", "re"), ("payouts", "po"), ("products", "prod"),
            ("prices", "price"), ("coupons", "co"), ("webhook_endpoints", "we"), ("events", "evt"),
        ]
        var random = SeededGenerator(seed: 0x5EED_DEE9)
        var links: [Link] = []
        for (name, prefix) in resources {
            let id = "\(prefix)_\(random.token(length: 14, alphabet: SeededGenerator.alphanumeric))"
            let base = "https://api.example.com/v1/\(name)"
            let item = "\(base)/{id:\(prefix)_[A-Za-z0-9]{14}=\(id)}"
            links.append(Link("\(base)?limit=10&starting_after=\(prefix)_\(random.token(length: 14, alphabet: SeededGenerator.alphanumeric))"))
            links.append(Link("\(base)/search?query=status%3A%22active%22+AND+amount%3E1000"))
            links.append(Link(item))
            links.append(Link("\(item)/lines(/{line:uint=2})", also: ["\(item)/lines(!/{line:uint=2})"]))
            links.append(Link("\(item)/history"))
            links.append(Link("\(item)/{action:(cancel|confirm|capture)=confirm}"))
            links.append(Link("\(item)/metadata/:key=order_ref"))
            links.append(Link("\(item)/files/*path=2025/03/receipt%20%231.pdf"))
        }
        return links
    }
}
