import Foundation
import MovieMaker

var promo = Timeline(output: Timeline.Output(size: Timeline.FrameSize(width: 1280, height: 720), fps: 30))
promo.slots = [
    "headline": Timeline.Slot(.text, default: .text("Hello")),
    "accent": Timeline.Slot(.color, default: .color("#e4572e")),
]
promo.tracks = [
    Timeline.Track(.video, items: [
        Timeline.Item(.color(Timeline.ColorFill("{{accent}}", duration: 4))),
    ]),
    Timeline.Track(.overlay, items: [
        Timeline.Item(.title(Timeline.Title("{{headline}}", duration: 4, style: .pop))),
    ]),
]
try promo.write(to: URL(fileURLWithPath: "promo.json"))
print(try Timeline(contentsOf: URL(fileURLWithPath: "promo.json")) == promo)
