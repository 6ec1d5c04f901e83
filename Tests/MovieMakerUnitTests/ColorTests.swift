import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// HSL/HSB, CSS names and parsing, mixing and contrast.
@Suite struct ColorTests {
    /// True when every component of `a` is within `tolerance` of `b`'s.
    private func close(_ a: Color, _ b: Color, _ tolerance: Double = 1e-9) -> Bool {
        abs(a.red - b.red) <= tolerance && abs(a.green - b.green) <= tolerance
            && abs(a.blue - b.blue) <= tolerance && abs(a.alpha - b.alpha) <= tolerance
    }

    @Test func hslOfPrimariesSecondariesAndGreys() {
        let expected: [(Color, Double, Double, Double)] = [
            (.red, 0, 1, 0.5), (.yellow, 60, 1, 0.5), (.green, 120, 1, 0.5), (.cyan, 180, 1, 0.5),
            (.blue, 240, 1, 0.5), (.magenta, 300, 1, 0.5), (.black, 0, 0, 0), (.white, 0, 0, 1), (.gray, 0, 0, 0.5),
        ]
        for (c, h, s, l) in expected {
            #expect(c.hsl == (h, s, l), "\(c): \(c.hsl)")
            #expect(Color(hue: h, saturation: s, lightness: l) == c, "\(c)")
        }
        #expect(Color(hue: 30, saturation: 1, lightness: 0.5) == Color(red: 1, green: 0.5, blue: 0))
        #expect(Color(hue: -90, saturation: 1, lightness: 0.5) == Color(hue: 270, saturation: 1, lightness: 0.5))
        #expect(Color(hue: 480, saturation: 1, lightness: 0.5) == .green)
    }

    @Test func hslAndHsbRoundTrip() {
        for (h, s, l) in [(210.0, 0.6, 0.3), (15, 0.25, 0.8), (333, 1, 0.1)] {
            let c = Color(hue: h, saturation: s, lightness: l, alpha: 0.4)
            #expect(abs(c.hsl.hue - h) < 1e-9 && abs(c.hsl.saturation - s) < 1e-9 && abs(c.hsl.lightness - l) < 1e-9)
            #expect(c.alpha == 0.4)
            let b = c.hsb
            #expect(close(Color(hue: b.hue, saturation: b.saturation, brightness: b.brightness, alpha: 0.4), c))
        }
        let purple = Color(named: "rebeccapurple")!
        #expect(abs(purple.hsl.hue - 270) < 1e-9 && abs(purple.hsl.saturation - 0.5) < 1e-9 && abs(purple.hsl.lightness - 0.4) < 1e-9)
        #expect(abs(purple.hsb.saturation - 2.0 / 3) < 1e-9 && abs(purple.hsb.brightness - 0.6) < 1e-9)
        #expect(Color(hue: 0, saturation: 1, brightness: 1) == .red)
        #expect(Color(hue: 0, saturation: 0, brightness: 0.5) == .gray)
    }

    @Test func cssNamedColours() {
        #expect(Color.cssNames.count == 148)
        #expect(Color(named: "rebeccapurple")?.hexString == "#663399")
        #expect(Color(named: "CornflowerBlue")?.hexString == "#6495ed")
        #expect(Color(named: " tomato ")?.hexString == "#ff6347")
        #expect(Color(named: "gray") == Color(named: "grey"))
        #expect(Color(named: "green")?.hexString == "#008000")          // CSS green, not X11's #00ff00
        #expect(Color(named: "lime") == .green)
        #expect(Color(named: "notacolour") == nil)
        #expect(Color.cssNames.allSatisfy { Color(named: $0) != nil })
    }

    @Test func cssParsing() throws {
        let cases: [(String, Color)] = [
            ("#f80", Color(red8: 255, green8: 136, blue8: 0)),
            ("#F808", Color(red8: 255, green8: 136, blue8: 0, alpha: 136.0 / 255)),
            ("#ff880080", Color(red8: 255, green8: 136, blue8: 0, alpha: 128.0 / 255)),
            ("ff8800", Color(red8: 255, green8: 136, blue8: 0)),
            ("rgb(255, 128, 0)", Color(red8: 255, green8: 128, blue8: 0)),
            ("RGBA(255,128,0,0.5)", Color(red8: 255, green8: 128, blue8: 0, alpha: 0.5)),
            ("rgb(100% 50% 0% / 50%)", Color(red: 1, green: 0.5, blue: 0, alpha: 0.5)),
            ("rgb(300, -5, 0)", .red),                                   // clamped like CSS
            ("hsl(120, 100%, 50%)", .green),
            ("hsla(0.5turn 100% 50% / 0.25)", Color.cyan.withAlpha(0.25)),
            ("hsl(3.14159265358979rad, 100%, 50%)", .cyan),
            ("  Red ", .red),
            ("transparent", .clear),
        ]
        for (text, colour) in cases {
            let parsed = try Color(css: text)
            #expect(close(parsed, colour, 1e-6), "\(text) → \(parsed), expected \(colour)")
        }
    }

    @Test func badCSSThrowsNamingTheInput() {
        for bad in ["redd", "", "#12345", "rgb(1, 2)", "rgb(1, 2, x)", "hsl(a, b, c)", "cmyk(0, 0, 0, 0)", "rgba(1, 2, 3, half)"] {
            do {
                _ = try Color(css: bad)
                Issue.record("\(bad) parsed")
            } catch {
                #expect(error.description.contains("\"\(bad)\""), "\(error)")
            }
        }
    }

    @Test func mixingMidpoints() {
        #expect(Color.black.mixed(with: .white) == Color(white: 0.5))
        #expect(Color.red.mixed(with: .blue, amount: 0.25) == Color(red: 0.75, green: 0, blue: 0.25))
        #expect(Color.red.mixed(with: .blue, amount: 7) == .blue)
        // In linear light the midpoint of black and white is half the light: sRGB 0.7354.
        #expect(abs(Color.black.mixed(with: .white, in: .linear).red - 0.7353569830524495) < 1e-9)
        let yellow = Color.red.mixed(with: .green, in: .linear)
        #expect(abs(yellow.red - 0.7353569830524495) < 1e-9 && abs(yellow.green - 0.7353569830524495) < 1e-9 && yellow.blue == 0)
        // Mixing with clear only fades (premultiplied), in both spaces.
        #expect(close(Color.red.mixed(with: .clear), Color(red: 1, green: 0, blue: 0, alpha: 0.5)))
        #expect(close(Color.red.mixed(with: .clear, in: .linear), Color(red: 1, green: 0, blue: 0, alpha: 0.5)))
    }

    @Test func lighterAndDarker() {
        #expect(close(Color.red.lighter(by: 0.25), Color(red: 1, green: 0.5, blue: 0.5)))
        #expect(close(Color.red.darker(by: 0.25), Color(red: 0.5, green: 0, blue: 0)))
        #expect(close(Color.black.lighter(by: 0.2), Color(white: 0.2)))
        #expect(Color.white.lighter(by: 0.5) == .white)
        #expect(Color.red.withAlpha(0.3).darker().alpha == 0.3)
    }

    @Test func hexString() throws {
        #expect(Color.orange.hexString == "#ff8000")
        #expect(Color.orange.withAlpha(0.5).hexString == "#ff800080")
        #expect(try Color(css: "#abcdef").hexString == "#abcdef")
    }

    @Test func contrastRatios() {
        #expect(abs(Color.black.contrastRatio(with: .white) - 21) < 1e-9)
        #expect(abs(Color.white.contrastRatio(with: .black) - 21) < 1e-9)
        #expect(Color.red.contrastRatio(with: .red) == 1)
        #expect(abs(Color(hex: "#777777")!.contrastRatio(with: .white) - 4.478) < 0.001)   // just fails WCAG AA
        #expect(abs(Color.white.relativeLuminance - 1) < 1e-12 && Color.black.relativeLuminance == 0)
        #expect(abs(Color.green.relativeLuminance - 0.7152) < 1e-12)
        #expect(Color.yellow.mostContrasting() == .black)
        #expect(Color(named: "navy")!.mostContrasting() == .white)
        #expect(Color.gray.mostContrasting(among: [.gray, .red, .white]) == .white)
    }

    @Test("Color(validatingHex:) throws like Color(css:); Color(hex:) of an integer literal cannot fail")
    func throwingAndLiteralHexForms() throws {
        #expect(try Color(validatingHex: "#2ec4b6") == Color(hex: "#2ec4b6")!)
        #expect(try Color(validatingHex: "f80") == Color(red: 1, green: 0x88 / 255, blue: 0))
        #expect(try Color(validatingHex: "#ff880080").alpha == Double(0x80) / 255)
        for bad in ["#12345", "#gg0000", "", "tomato"] {
            do {
                _ = try Color(validatingHex: bad)
                Issue.record("\(bad) should not parse as hex")
            } catch {
                #expect(error.code == .invalidSetting && error.setting == .color, "\(error)")
                #expect(error.message.contains("\"\(bad)\"") && error.message.contains("hexadecimal digits"), "\(error.message)")
                // The same kind of error Color(css:) throws for a bad colour.
                #expect((try? Color(css: "#12345")) == nil)
            }
        }
        #expect(Color(hex: 0x2ec4b6) == Color(hex: "#2ec4b6")!)
        #expect(Color(hex: 0xff0000, alpha: 0.5) == Color(red: 1, green: 0, blue: 0, alpha: 0.5))
    }
}
