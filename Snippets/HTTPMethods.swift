// Routing requests: a method and a URL. Routes of one path may take different methods; a
// request no route's methods accept gets the methods to answer a 405 with.
import FastRouter

let router = Router<String>()
try router.add("/users/:id", methods: [.get], value: "show user")
try router.add("/users/:id", methods: [.put, .patch], value: "update user")
try router.add("/users/:id", methods: [.delete], value: "delete user")
try router.add("/health", value: "health")      // no methods: any method

func respond(_ method: HTTPMethod, _ url: String) throws -> String {
    switch try router.match(url, method: method) {
    case .matched(let match):
        return "200 \(match.value) \(match.parameters["id"] ?? "")"
    case .notFound:
        return "404"
    case .methodNotAllowed(let allowed):
        return "405 Allow: \(allowed.headerValue)"
    }
}

print(try respond(.delete, "/users/42"))    // 200 delete user 42
print(try respond(.head, "/users/42"))      // 200 show user 42 (GET routes serve HEAD)
print(try respond(.post, "/users/42"))      // 405 Allow: GET, HEAD, PUT, DELETE, PATCH
print(try respond(.post, "/health"))        // 200 health
// snippet.hide
let answers = try [respond(.delete, "/users/42"), respond(.head, "/users/42"), respond(.post, "/users/42"),
                   respond(.post, "/health"), respond(.get, "/nothing"), respond(HTTPMethod(rawValue: "PURGE")!, "/users/1")]
precondition(answers == ["200 delete user 42", "200 show user 42", "405 Allow: GET, HEAD, PUT, DELETE, PATCH",
                         "200 health ", "404", "405 Allow: GET, HEAD, PUT, DELETE, PATCH"], "\(answers)")
