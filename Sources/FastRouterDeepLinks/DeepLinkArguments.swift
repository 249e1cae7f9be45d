import FastRouter

/// A parameter that is missing or does not convert to the type asked for.
///
/// Its description names the parameter, the value and the type:
/// `parameter 'pokedexID': 'pikachu' is not a valid Int`.
public struct DeepLinkArgumentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the parameter could not be read.
    public enum Reason: Sendable, Equatable {
        /// No parameter (path or query) has the name.
        case missing
        /// The value (or, for a list, the item) is not a valid `expected`.
        case invalid(value: String, expected: String)
    }

    /// The parameter's name.
    public var name: String
    /// Why it could not be read.
    public var reason: Reason

    /// Creates an error.
    public init(name: String, reason: Reason) {
        self.name = name
        self.reason = reason
    }

    /// One line naming the parameter.
    public var description: String {
        switch reason {
        case .missing:
            return "missing parameter '\(name)'"
        case .invalid(let value, let expected):
            return "parameter '\(name)': '\(value)' is not a valid \(expected)"
        }
    }
}

/// Typed access to a match's parameters, by name or as properties.
///
/// ```swift
/// // pokedex://pokemon/{pokedexID:int}?types=fire,water&shiny=yes
/// let id: Int = try arguments.pokedexID
/// let types: [PokemonType] = try arguments.types          // any String- or Int-backed enum
/// let shiny: Bool? = try arguments.shiny                  // nil when absent
/// let same = try arguments.parameter("types", as: [PokemonType].self)
/// ```
///
/// A name reads the first pair with that name (path values before query values); a list reads
/// every value of the name, each split on commas, so `?t=a&t=b` and `?t=a,b` agree. A missing or
/// unconvertible value throws a ``DeepLinkArgumentError`` naming the parameter; asking for an
/// optional turns only "missing" into `nil`.
@dynamicMemberLookup
public struct DeepLinkArguments: Sendable, Equatable {
    /// The raw pairs.
    public let parameters: Parameters

    /// Typed access to `parameters`.
    public init(_ parameters: Parameters) {
        self.parameters = parameters
    }

    /// Whether a parameter (path or query) has `name`.
    public func contains(_ name: String) -> Bool { parameters[name] != nil }

    // MARK: By name

    /// The parameter `name` as a `T`.
    /// - Throws: ``DeepLinkArgumentError`` when it is missing or does not convert.
    public func parameter<T: LinkParameterValue>(_ name: String, as type: T.Type = T.self) throws(DeepLinkArgumentError) -> T {
        guard let value = try optional(name, as: T.self) else { throw DeepLinkArgumentError(name: name, reason: .missing) }
        return value
    }

    /// The parameter `name` as a `T`, or `nil` when it is absent.
    /// - Throws: ``DeepLinkArgumentError`` when it is present but does not convert.
    public func parameterIfPresent<T: LinkParameterValue>(_ name: String, as type: T.Type = T.self) throws(DeepLinkArgumentError) -> T? {
        try optional(name, as: T.self)
    }

    /// The parameter `name` as a case of a string- or integer-backed enum.
    /// - Throws: ``DeepLinkArgumentError`` when it is missing or names no case.
    public func parameter<T: RawRepresentable>(_ name: String, as type: T.Type = T.self) throws(DeepLinkArgumentError) -> T
    where T.RawValue: LinkParameterValue {
        guard let value = try optionalCase(name, as: T.self) else { throw DeepLinkArgumentError(name: name, reason: .missing) }
        return value
    }

    /// The parameter `name` as an enum case, or `nil` when it is absent.
    public func parameterIfPresent<T: RawRepresentable>(_ name: String, as type: T.Type = T.self) throws(DeepLinkArgumentError) -> T?
    where T.RawValue: LinkParameterValue {
        try optionalCase(name, as: T.self)
    }

    /// The parameter `name` as a comma-separated list of enum cases (every value of the name).
    /// - Throws: ``DeepLinkArgumentError`` when it is missing or an item names no case.
    public func parameter<T: RawRepresentable>(_ name: String, as type: [T].Type) throws(DeepLinkArgumentError) -> [T]
    where T.RawValue: LinkParameterValue {
        guard let value = try optionalCases(name, as: T.self) else { throw DeepLinkArgumentError(name: name, reason: .missing) }
        return value
    }

    /// The parameter `name` as a list of enum cases, or `nil` when it is absent.
    public func parameterIfPresent<T: RawRepresentable>(_ name: String, as type: [T].Type) throws(DeepLinkArgumentError) -> [T]?
    where T.RawValue: LinkParameterValue {
        try optionalCases(name, as: T.self)
    }

    /// The parameter `name` as an enum that also declares ``LinkParameterValue`` (picks one reading for both).
    public func parameter<T: RawRepresentable & LinkParameterValue>(_ name: String, as type: T.Type = T.self) throws(DeepLinkArgumentError) -> T
    where T.RawValue: LinkParameterValue {
        guard let value = try optional(name, as: T.self) else { throw DeepLinkArgumentError(name: name, reason: .missing) }
        return value
    }

    /// The parameter `name` as an enum that also declares ``LinkParameterValue``, or `nil` when absent.
    public func parameterIfPresent<T: RawRepresentable & LinkParameterValue>(_ name: String, as type: T.Type = T.self) throws(DeepLinkArgumentError) -> T?
    where T.RawValue: LinkParameterValue {
        try optional(name, as: T.self)
    }

    // MARK: As properties

    /// `arguments.name` as a `T`: `let id: Int = try arguments.pokedexID`.
    public subscript<T: LinkParameterValue>(dynamicMember name: String) -> T {
        get throws(DeepLinkArgumentError) { try parameter(name, as: T.self) }
    }

    /// `arguments.name` as a `T?`: `nil` when absent, an error when it does not convert.
    public subscript<T: LinkParameterValue>(dynamicMember name: String) -> T? {
        get throws(DeepLinkArgumentError) { try optional(name, as: T.self) }
    }

    /// `arguments.name` as an enum case.
    public subscript<T: RawRepresentable>(dynamicMember name: String) -> T where T.RawValue: LinkParameterValue {
        get throws(DeepLinkArgumentError) { try parameter(name, as: T.self) }
    }

    /// `arguments.name` as an enum case, `nil` when absent.
    public subscript<T: RawRepresentable>(dynamicMember name: String) -> T? where T.RawValue: LinkParameterValue {
        get throws(DeepLinkArgumentError) { try optionalCase(name, as: T.self) }
    }

    /// `arguments.name` as a comma-separated list of enum cases.
    public subscript<T: RawRepresentable>(dynamicMember name: String) -> [T] where T.RawValue: LinkParameterValue {
        get throws(DeepLinkArgumentError) { try parameter(name, as: [T].self) }
    }

    /// `arguments.name` as a list of enum cases, `nil` when absent.
    public subscript<T: RawRepresentable>(dynamicMember name: String) -> [T]? where T.RawValue: LinkParameterValue {
        get throws(DeepLinkArgumentError) { try optionalCases(name, as: T.self) }
    }

    /// `arguments.name` as an enum that also declares ``LinkParameterValue``.
    public subscript<T: RawRepresentable & LinkParameterValue>(dynamicMember name: String) -> T where T.RawValue: LinkParameterValue {
        get throws(DeepLinkArgumentError) { try parameter(name, as: T.self) }
    }

    /// `arguments.name` as an enum that also declares ``LinkParameterValue``, `nil` when absent.
    public subscript<T: RawRepresentable & LinkParameterValue>(dynamicMember name: String) -> T? where T.RawValue: LinkParameterValue {
        get throws(DeepLinkArgumentError) { try optional(name, as: T.self) }
    }

    /// `arguments.name` as a list of enums that also declare ``LinkParameterValue``.
    public subscript<T: RawRepresentable & LinkParameterValue>(dynamicMember name: String) -> [T] where T.RawValue: LinkParameterValue {
        get throws(DeepLinkArgumentError) {
            guard let value = try optional(name, as: [T].self) else { throw DeepLinkArgumentError(name: name, reason: .missing) }
            return value
        }
    }

    /// `arguments.name` as a list of enums that also declare ``LinkParameterValue``, `nil` when absent.
    public subscript<T: RawRepresentable & LinkParameterValue>(dynamicMember name: String) -> [T]? where T.RawValue: LinkParameterValue {
        get throws(DeepLinkArgumentError) { try optional(name, as: [T].self) }
    }

    // MARK: Conversion

    private func optional<T: LinkParameterValue>(_ name: String, as type: T.Type) throws(DeepLinkArgumentError) -> T? {
        if let list = T.self as? any LinkParameterList.Type {
            let values = parameters.values(name)
            guard !values.isEmpty else { return nil }
            switch list.readList(values) {
            case .success(let items): return (items as! T)  // Safety: `list` is `T.self`.
            case .failure(let failure):
                throw DeepLinkArgumentError(name: name, reason: .invalid(value: failure.item, expected: list.elementTypeName))
            }
        }
        guard let text = parameters[name] else { return nil }
        guard let value = T(linkParameter: text) else {
            throw DeepLinkArgumentError(name: name, reason: .invalid(value: text, expected: String(describing: T.self)))
        }
        return value
    }

    private func optionalCase<T: RawRepresentable>(_ name: String, as type: T.Type) throws(DeepLinkArgumentError) -> T?
    where T.RawValue: LinkParameterValue {
        guard let text = parameters[name] else { return nil }
        guard let raw = T.RawValue(linkParameter: text), let value = T(rawValue: raw) else {
            throw DeepLinkArgumentError(name: name, reason: .invalid(value: text, expected: String(describing: T.self)))
        }
        return value
    }

    private func optionalCases<T: RawRepresentable>(_ name: String, as type: T.Type) throws(DeepLinkArgumentError) -> [T]?
    where T.RawValue: LinkParameterValue {
        let values = parameters.values(name)
        guard !values.isEmpty else { return nil }
        var items: [T] = []
        for value in values {
            for item in value.split(separator: ",", omittingEmptySubsequences: true) {
                guard let raw = T.RawValue(linkParameter: String(item)), let element = T(rawValue: raw) else {
                    throw DeepLinkArgumentError(name: name, reason: .invalid(value: String(item), expected: String(describing: T.self)))
                }
                items.append(element)
            }
        }
        return items
    }
}
