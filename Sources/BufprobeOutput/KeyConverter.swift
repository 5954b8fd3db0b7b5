import Foundation

/// Foundation's `convertToSnakeCase`, remembered per key for the document (reports repeat the same keys
/// in every element of an array).
final class KeyConverter {
    private var converted: [String: String] = [:]

    func snakeCase(_ key: String) -> String {
        if let known = converted[key] { return known }
        let result = Self.convert(key)
        converted[key] = result
        return result
    }

    /// Words start at an uppercase letter; a run of uppercase letters followed by lowercase ones is a word
    /// of its own up to the last capital ("HTTPStatus" -> "h_ttp_status", as Foundation has it); each word
    /// is lowercased and the words are joined with "_". The first character never starts a word.
    static func convert(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        var words: [Range<String.Index>] = []
        var wordStart = key.startIndex
        var searchRange = key.index(after: wordStart)..<key.endIndex
        while let upper = key.rangeOfCharacter(from: .uppercaseLetters, options: [], range: searchRange) {
            words.append(wordStart..<upper.lowerBound)
            searchRange = upper.lowerBound..<searchRange.upperBound
            guard let lower = key.rangeOfCharacter(from: .lowercaseLetters, options: [], range: searchRange) else {
                wordStart = searchRange.lowerBound
                break
            }
            let afterCapital = key.index(after: upper.lowerBound)
            if lower.lowerBound == afterCapital {
                wordStart = upper.lowerBound
            } else {
                let beforeLower = key.index(before: lower.lowerBound)
                words.append(upper.lowerBound..<beforeLower)
                wordStart = beforeLower
            }
            searchRange = lower.upperBound..<searchRange.upperBound
        }
        words.append(wordStart..<searchRange.upperBound)
        return words.map { key[$0].lowercased() }.joined(separator: "_")
    }
}
