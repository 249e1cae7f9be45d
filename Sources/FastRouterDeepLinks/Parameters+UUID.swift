import FastRouter
import Foundation

extension Parameters {
    /// The first value named `name` as a `UUID`, or `nil`.
    ///
    /// Lives beside the deep-link layer because `UUID` is Foundation's, and the core library does
    /// not import Foundation.
    public func uuid(_ name: String) -> UUID? { self[name].flatMap { UUID(uuidString: $0) } }
}
