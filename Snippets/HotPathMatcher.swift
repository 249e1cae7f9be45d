// A `Matcher` per thread for hot paths: once warm, a lookup allocates nothing, and parameters
// are read as bytes that stay valid until the matcher's next lookup.
import FastRouter

let router = Router<String>()
try router.add("/users/:id", value: "user")

let matcher = Matcher(router: router)
if try matcher.match("/users/42"), let id = matcher.parameterBytes("id") {
    // id is an UnsafeBufferPointer<UInt8> valid until the next match on this matcher
    print(matcher.value!, String(decoding: id, as: UTF8.self))   // user 42
}
// snippet.hide
precondition(matcher.value == "user" && matcher.parameter("id") == "42")
