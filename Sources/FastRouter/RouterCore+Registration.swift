extension RouterCore {
    /// A route to register: its pattern, priority, id and an opaque payload (owned by the router
    /// once registered, hence sendable).
    struct Registration: @unchecked Sendable {
        /// The pattern as the Swift caller's string; `nil` when it came as bytes.
        var text: String?
        /// The pattern's raw bytes (C ABI: not necessarily UTF-8), used when `text` is `nil`: the
        /// caller's buffer, borrowed for the duration of the add that takes this registration.
        var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var priority: Int32
        var id: UInt64
        var payload: UnsafeMutableRawPointer?
        /// The methods the route accepts; empty for any method.
        var methods: [HTTPMethod] = []

        /// Runs `body` on the pattern's bytes without copying a native string.
        func withPattern<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            if let text { return withUTF8(text, body) }
            return body(bytes)
        }

        /// ``withPattern(_:)`` of the registration at `registration`, read where it lies: a
        /// method called on a registration read out of a buffer copies it whole (a retain and a
        /// release of its string and its list).
        static func withPattern<R>(at registration: UnsafePointer<Registration>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            if registration.pointee.text == nil { return body(registration.pointee.bytes) }
            return withUTF8(registration.pointee.text.unsafelyUnwrapped, body)
        }
    }

    /// Registers one route (all its expansions) or nothing.
    /// - Throws: a pattern error with its offset, `.duplicateRoute`, `.invalidArgument` for the
    ///   reserved id, or `.outOfMemory` when the process-wide table of parameter names is full.
    /// - Complexity: O(pattern length) plus one grace period.
    package func add(pattern: UnsafeBufferPointer<UInt8>, priority: Int32, id: UInt64, payload: UnsafeMutableRawPointer?) throws(RouterError) {
        try add(one: Registration(text: nil, bytes: pattern, priority: priority, id: id, payload: payload))
    }

    /// Registers one route for the methods of `methods`, a comma-separated list (`"GET,POST"`;
    /// empty or `"*"` for any method), as the C ABI takes it.
    /// - Throws: as ``add(pattern:priority:id:payload:)``; `.invalidArgument` naming an invalid
    ///   method, or for a router's 65th method name.
    package func add(pattern: UnsafeBufferPointer<UInt8>, methods: UnsafeBufferPointer<UInt8>, priority: Int32,
                     id: UInt64, payload: UnsafeMutableRawPointer? = nil) throws(RouterError) {
        let list = methods.isEmpty ? [] : try MethodList.parse(methods)
        try add(one: Registration(text: nil, bytes: pattern, priority: priority, id: id, payload: payload, methods: list))
    }

    /// Registers one route, lent to the batch path where it lies (a list of one would be an
    /// allocation per add).
    private func add(one registration: Registration) throws(RouterError) {
        try withUnsafePointer(to: registration) { (pointer) throws(RouterError) in
            try add(UnsafeBufferPointer(start: pointer, count: 1))
        }
    }

    /// Registers routes all at once, or none of them when any fails.
    ///
    /// Every route is parsed and added to one ``TreeEditor``, which copies only the published
    /// nodes it changes; one publication makes the whole batch visible. A duplicate anywhere
    /// drops the editor: nothing readers can see has changed. Parsing happens under the writer
    /// lock; readers never take it.
    /// - Complexity: O(total pattern length) plus the nodes the batch changes; one grace period.
    func add(_ registrations: [Registration]) throws(RouterError) {
        try registrations.withUnsafeBufferPointer { (registrations) throws(RouterError) in try add(registrations) }
    }

    /// ``add(_:)-([Registration])`` on the registrations where they lie.
    private func add(_ lent: UnsafeBufferPointer<Registration>) throws(RouterError) {
        let registrations = LentRegistrations(buffer: lent)
        // By index, here and below: a registration read in place, not copied out (it holds a
        // string and an array).
        for index in registrations.indices {
            if registrations[index].id == UInt64.max {
                throw RouterError(.invalidArgument, offset: 0, "route id UINT64_MAX is reserved (FR_NO_ROUTE)")
            }
            // A terminal holds the payload or the id, never both (``Terminal/result``).
            precondition((registrations[index].payload != nil) == holdsPayloads, "a router's routes all carry a payload, or none does")
        }
        try writer.withLock { (state) throws(RouterError) in
            // The buffers of the last registration call serve this one, used where they are (not
            // taken out and put back, which copies them): a single add then allocates little for
            // its bookkeeping.
            state.preparation.begin(firstSequence: state.nextSequence)
            state.editor.begin(tables.published)
            // A large batch makes about a node and a half per route: room for them at once, rather
            // than growing (and copying) the editor's nodes a dozen times.
            if registrations.count > Self.spareBufferRoutes { state.editor.reserveNodes(registrations.count * 2) }
            defer {
                if registrations.count <= Self.spareBufferRoutes {
                    state.preparation.end()
                    state.editor.end()
                } else {
                    // A large batch's buffers are let go rather than held for the router's life.
                    state.preparation = BatchPreparation()
                    state.editor = TreeEditor()
                }
            }
            // Made only when it is thrown: building it reads every registration.
            func duplicate() -> RouterError {
                RouterError(.duplicateRoute, offset: 0, registrations.allSatisfy { $0.methods.isEmpty }
                    ? "a route with the same table, host, priority and segments is already registered"
                    : "a route with the same table, host, priority and segments and a method in common is already registered")
            }
            var maxCaptures = state.maxCaptures
            do {
                for index in registrations.indices {
                    let methods = try self.methods.set(of: registrations[index].methods)
                    let methodSet = try state.methodSetIndex(methods)
                    // The router's state lent to the preparation, not copied (a retain and a
                    // release each); landing the batch changes it only after this.
                    let added = try withUnsafePointer(to: &state.regexes) { (regexes) throws(RouterError) in
                        try withUnsafePointer(to: &state.templates) { (templates) throws(RouterError) in
                            try withUnsafePointer(to: options.webSchemes) { (webSchemes) throws(RouterError) in
                                let context = BatchPreparation.Context(regexes: regexes, templates: templates, webSchemes: webSchemes,
                                                                       names: Unmanaged.passUnretained(names))
                                return try state.preparation.prepare(registrations.address(index), methods, methodSet, context,
                                                                     adding: &state.editor, maxCaptures: &maxCaptures)
                            }
                        }
                    }
                    guard added else { throw duplicate() }
                }
            }
            tables.publish(&state.editor, maxCaptures: maxCaptures, router: tag, retired: &state.retired)
            state.maxCaptures = maxCaptures
            // The batch has landed: record it. (Most batches have no regex or template: their
            // empty collections are not even iterated, which costs reference counts.)
            if !state.preparation.regexes.isEmpty {
                for (source, regex) in state.preparation.regexes where state.regexes[source] == nil {
                    state.regexes[source] = (regex, 0)
                }
            }
            if !state.preparation.templates.isEmpty {
                for (key, template) in state.preparation.templates where state.templates[key] == nil {
                    state.templates[key] = (template, 0)
                }
            }
            state.routes.reserve(routes: registrations.count)
            var sequence = state.nextSequence
            if !state.preparation.sharedParts.isEmpty {
                for route in state.preparation.sharedParts {
                    for source in route.regexSources { state.regexes[source]!.uses += 1 }
                    for key in route.templateKeys { state.templates[key]!.uses += 1 }
                }
            }
            for index in registrations.indices {
                let methodSet = state.preparation.methodSets[index]
                Registration.withPattern(at: registrations.address(index)) { bytes in
                    state.routes.add(id: registrations[index].id, pattern: bytes, methodSet: methodSet,
                                     priority: registrations[index].priority, sequence: sequence)
                }
                sequence += 1
            }
            state.nextSequence = state.preparation.sequence
            routeCount.add(registrations.count, ordering: .relaxed)
            state.reclaimPayloads(router: tag)
        }
    }

    /// Most routes a registration call's buffers are kept for, for the next call.
    private static var spareBufferRoutes: Int { 256 }

    /// The registrations of one call where the caller keeps them, read under the writer lock.
    // Safety: `@unchecked Sendable` as ``Registration`` is: the buffer is the caller's, which
    // outlives the call, and only the call's own thread reads it, inside the lock's closure.
    private struct LentRegistrations: @unchecked Sendable {
        let buffer: UnsafeBufferPointer<Registration>
        var count: Int { buffer.count }
        var indices: Range<Int> { buffer.indices }
        subscript(index: Int) -> Registration {
            unsafeAddress { address(index) }
        }
        /// Where registration `index` lies.
        func address(_ index: Int) -> UnsafePointer<Registration> { buffer.baseAddress.unsafelyUnwrapped + index }
        func allSatisfy(_ predicate: (Registration) -> Bool) -> Bool { buffer.allSatisfy(predicate) }
    }
}
