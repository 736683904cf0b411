/// A position in a source file: 1-based line and column, the column counting UTF-8 bytes as the Swift compiler does.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's path as it was given to the generator.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, in UTF-8 bytes.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `path:line:column`, the form editors and compilers understand.
    public var description: String { "\(file):\(line):\(column)" }

    /// Orders by file, then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
