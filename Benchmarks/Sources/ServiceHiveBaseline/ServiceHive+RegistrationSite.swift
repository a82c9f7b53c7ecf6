extension ServiceHive {
    /// Where a registration was made: the source location and, when a module made it, the module's name.
    ///
    /// Every `register` call records `#fileID` and `#line` through defaulted parameters, so the
    /// ``ServiceHiveError/alreadyRegistered(_:existing:rejected:)`` error and ``ServiceHive/registrations`` can
    /// point at the line that registered a service.
    public struct RegistrationSite: Hashable, Sendable, CustomStringConvertible {
        /// The file, as `#fileID` gives it: `Module/File.swift`.
        public var fileID: String
        /// The line in ``fileID``.
        public var line: UInt
        /// The name of the ``ServiceModule`` whose installation made the registration, or `nil`.
        public var module: String?

        /// Creates a registration site.
        ///
        /// - Parameters:
        ///   - fileID: The file, as `#fileID` gives it.
        ///   - line: The line in the file.
        ///   - module: The name of the module that made the registration, if any.
        public init(fileID: String, line: UInt, module: String? = nil) {
            self.fileID = fileID
            self.line = line
            self.module = module
        }

        /// `File.swift:12`, followed by `(module Trade)` when a module made the registration.
        public var description: String {
            let location = "\(fileID):\(line)"
            guard let module else { return location }
            return "\(location) (module \(module))"
        }
    }
}
