/// One value of the document being built: empty until something is encoded into it.
final class JSONNode {
    /// What the node holds.
    enum Content {
        /// A number, string, boolean or `null`, already as JSON text.
        case literal(String)
        /// Elements in order.
        case array([JSONNode])
        /// Members by key (written sorted).
        case object([String: JSONNode])
    }

    var content: Content?

    /// Makes the node an object, keeping the members of one it already is (a second keyed container on the
    /// same encoder adds to the first, as in Foundation).
    func becomeObject() {
        if case .object = content { return }
        content = .object([:])
    }

    /// Makes the node an array, keeping the elements it already has.
    func becomeArray() {
        if case .array = content { return }
        content = .array([])
    }

    /// Sets the member `key` to a new empty node and returns it.
    func member(_ key: String) -> JSONNode {
        let child = JSONNode()
        guard case .object(var members) = content else { return child }
        content = nil  // so the dictionary is uniquely referenced while it changes
        members[key] = child
        content = .object(members)
        return child
    }

    /// Appends a new empty node and returns it.
    func appendElement() -> JSONNode {
        let child = JSONNode()
        guard case .array(var elements) = content else { return child }
        content = nil
        elements.append(child)
        content = .array(elements)
        return child
    }

    /// The number of elements of an array node.
    var elementCount: Int {
        if case .array(let elements) = content { return elements.count }
        return 0
    }
}
