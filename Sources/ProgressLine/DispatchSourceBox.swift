import Dispatch

// Dispatch sources are thread-safe objects that Dispatch does not mark Sendable; the line only
// creates and cancels them under its lock.
struct DispatchSourceBox: @unchecked Sendable {
    let source: any DispatchSourceProtocol
    init(_ source: any DispatchSourceProtocol) { self.source = source }
    func cancel() { source.cancel() }
}
