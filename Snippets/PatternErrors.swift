// A pattern the router cannot read throws a `RouterError` naming the byte offset of the
// offending construct.
import FastRouter

let router = Router<String>()
do { try router.add("/a/{id:int", value: "x") } catch {
    print(error)   // invalid pattern at offset 3: unbalanced '{': missing '}'
    // snippet.hide
    precondition(error.code == .invalidPattern && error.offset == 3)
    precondition("\(error)" == "invalid pattern at offset 3: unbalanced '{': missing '}'")
    // snippet.show
}
