import Foundation
import Testing

/// Every relative link in the documentation names a file of the checkout (issue 35: the README is a map
/// of docs/, and a page left out of a commit would leave the map pointing nowhere in a fresh clone).
@Suite("links in the documentation")
struct DocLinkTests {
    @Test("every relative Markdown link (and image) points at a file or folder that exists")
    func relativeLinksResolve() throws {
        let files = DocSnippetTests.markdownFiles() + [DocSnippetTests.repository.appendingPathComponent("CHANGELOG.md")]
        var checked = 0
        var broken: [String] = []
        let pattern = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        for file in files where FileManager.default.fileExists(atPath: file.path) {
            let text = try String(contentsOf: file, encoding: .utf8)
            var inFence = false
            for (n, line) in text.components(separatedBy: "\n").enumerated() {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle(); continue }
                if inFence { continue }
                let ns = line as NSString
                for match in pattern.matches(in: line, range: NSRange(location: 0, length: ns.length)) {
                    var target = ns.substring(with: match.range(at: 1))
                    if target.contains("://") || target.hasPrefix("#") || target.hasPrefix("mailto:") { continue }
                    if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
                    let url = file.deletingLastPathComponent().appendingPathComponent(target.removingPercentEncoding ?? target)
                    checked += 1
                    if !FileManager.default.fileExists(atPath: url.standardizedFileURL.path) {
                        broken.append("\(file.lastPathComponent):\(n + 1): \(target)")
                    }
                }
            }
        }
        #expect(checked >= 30, "only \(checked) relative links found")
        #expect(broken.isEmpty, "links to files that do not exist: \(broken)")
    }
}
