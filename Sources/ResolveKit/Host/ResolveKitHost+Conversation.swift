extension ResolveKitHost {
    /// A page of `key`'s conversation as the backend keeps it (see ``ResolveKitRuntime/history(limit:before:)``),
    /// opening the key's session first if needed.
    /// - Throws: ``ResolveKitError``: what opening the session throws, and what `history` throws.
    public func history(of key: String, limit: Int = 50, before: ResolveKitHistoryPage.Cursor? = nil)
        async throws(ResolveKitError) -> ResolveKitHistoryPage
    {
        try await session(for: key).history(limit: limit, before: before)
    }
}
