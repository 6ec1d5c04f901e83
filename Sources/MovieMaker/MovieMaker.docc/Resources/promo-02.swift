import Foundation
import MovieMaker

let promo = try Timeline(contentsOf: URL(fileURLWithPath: "promo.json"))
let summer = try promo.filled(with: ["headline": .text("Summer sale"), "accent": .color("#2e86e4")])
let summary = try summer.render(to: URL(fileURLWithPath: "promo.mp4"))
print(summary)
