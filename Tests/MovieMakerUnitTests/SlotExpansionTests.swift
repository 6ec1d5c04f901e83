import Foundation
import Testing
@testable import MovieMaker

// Issue 33, reliability 8: `{{slot}}` placeholders were found by searching the rest of the text once per
// placeholder (quadratic: 200,000 placeholders took over a minute, uninterruptible), and a title's
// 2,000-character limit was checked only after the text was built (a 100 MB title cost 961 MB first).
@Suite("Slot placeholders: one pass, sizes checked before expanding")
struct SlotExpansionTests {
    /// A description with one title whose text is `text`, and a text slot `name` whose default is `value`.
    func description(text: String, value: String) -> String {
        let slot = #"{"kind": "text", "default": "\#(value)"}"#
        return #"{"version": 1, "output": {"size": "320x240", "fps": 10}, "slots": {"name": \#(slot)}, "tracks": [{"kind": "video", "items": [{"type": "title", "text": "\#(text)", "duration": 1}]}]}"#
    }

    @Test("200,000 placeholders are read and refused (too long once filled) in seconds, not minutes")
    func manyPlaceholdersAreLinear() throws {
        let text = String(repeating: "{{name}}", count: 200_000)
        let started = Date()
        let timeline = try Timeline(jsonText: description(text: text, value: "x"))
        #expect(throws: MovieMakerError.self) { try timeline.composition() }
        let elapsed = Date().timeIntervalSince(started)
        // About 1 s in a debug build on a quiet machine (it took over a minute); the bound leaves room for
        // a busy test run.
        #expect(elapsed < 10, "reading and compiling took \(elapsed) s")
    }

    @Test("a title that would be 100 million characters is refused before it is built, naming the limit")
    func hugeExpansionIsRefusedFirst() throws {
        let value = String(repeating: "abcdefghij", count: 1_000)          // 10,000 characters
        let text = String(repeating: "{{name}}", count: 10_000)             // 100,000,000 once filled
        let timeline = try Timeline(jsonText: description(text: text, value: value))
        let started = Date()
        do {
            _ = try timeline.composition()
            Issue.record("a 100-million-character title was accepted")
        } catch {
            #expect(error.message.contains("at most \(Timeline.maximumTitleTextLength) characters") && error.message.contains("100000000"), "\(error.message)")
        }
        #expect(Date().timeIntervalSince(started) < 5, "refusing took \(Date().timeIntervalSince(started)) s: the text was built first")
    }

    @Test("placeholders are found as before: names trimmed, other braces and unfinished ones left as text")
    func placeholderSemantics() {
        #expect(Timeline.placeholders(in: "Hi {{ name }}, {{x y}} {{_a-1}}{{") == ["name", "_a-1"])
        #expect(Timeline.interpolate("{{a}}-{{b}}-{{c", ["a": "1", "b": "2"]) == "1-2-{{c")
        #expect(Timeline.interpolate("{{{a}}}", ["a": "1"]) == "{{{a}}}")
        #expect(Timeline.interpolate("é{{a}}ü", ["a": "ß"]) == "éßü")
    }
}
