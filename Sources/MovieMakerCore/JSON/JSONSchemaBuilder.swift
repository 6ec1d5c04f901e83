import Foundation

// The pieces the description file's shapes (TimelineShapes) and the filters' descriptors build their
// JSON Schema from: one list of fields per object, read, written and published from the same list.

/// One key of a description object: its name, its JSON Schema, whether it must be present, and what
/// it means (the schema's `description`).
package struct SpecField {
    package let key: String
    package let schema: JSONValue
    package let required: Bool
    package let doc: String

    package init(_ key: String, _ schema: JSONValue, required: Bool = false, _ doc: String) {
        self.key = key; self.schema = schema; self.required = required; self.doc = doc
    }
}

/// The fields of one kind of description object, and its name under the schema's `$defs`.
package struct SpecShape {
    package let name: String
    package let doc: String
    package let fields: [SpecField]

    /// A shape named `name` (its key under `$defs`) with its description and fields.
    package init(name: String, doc: String, fields: [SpecField]) {
        self.name = name; self.doc = doc; self.fields = fields
    }

    /// The keys, in declaration order.
    package var keys: [String] { fields.map(\.key) }
    /// Whether `key` is one of the shape's.
    package func has(_ key: String) -> Bool { fields.contains { $0.key == key } }

    /// The object's JSON Schema: closed (`additionalProperties: false`), its fields' schemas with
    /// their descriptions, the required ones listed.
    package var schema: JSONValue {
        var properties: [String: JSONValue] = [:]
        for f in fields {
            var s = f.schema.objectValue ?? [:]
            s["description"] = .string(f.doc)
            properties[f.key] = .object(s)
        }
        var o: [String: JSONValue] = [
            "type": .string("object"),
            "description": .string(doc),
            "additionalProperties": .bool(false),
            "properties": .object(properties),
        ]
        let required = fields.filter(\.required).map { JSONValue.string($0.key) }
        if !required.isEmpty { o["required"] = .array(required) }
        return .object(o)
    }
}

/// Small builders for JSON Schema fragments.
package enum Schema {
    package static func ref(_ name: String) -> JSONValue { .object(["$ref": .string("#/$defs/\(name)")]) }
    package static func string(minLength: Int? = nil, pattern: String? = nil) -> JSONValue {
        var o: [String: JSONValue] = ["type": .string("string")]
        if let minLength { o["minLength"] = .integer(minLength) }
        if let pattern { o["pattern"] = .string(pattern) }
        return .object(o)
    }
    package static func enumeration(_ values: [String]) -> JSONValue {
        .object(["type": .string("string"), "enum": .array(values.map(JSONValue.string))])
    }
    package static func constant(_ value: String) -> JSONValue { .object(["const": .string(value)]) }
    package static func integer(minimum: Int? = nil, maximum: Int? = nil) -> JSONValue {
        var o: [String: JSONValue] = ["type": .string("integer")]
        if let minimum { o["minimum"] = .integer(minimum) }
        if let maximum { o["maximum"] = .integer(maximum) }
        return .object(o)
    }
    package static func number(minimum: Double? = nil, exclusiveMinimum: Double? = nil, maximum: Double? = nil) -> JSONValue {
        var o: [String: JSONValue] = ["type": .string("number")]
        if let minimum { o["minimum"] = JSONValue.double(minimum)! }
        if let exclusiveMinimum { o["exclusiveMinimum"] = JSONValue.double(exclusiveMinimum)! }
        if let maximum { o["maximum"] = JSONValue.double(maximum)! }
        return .object(o)
    }
    package static let boolean: JSONValue = .object(["type": .string("boolean")])
    package static func array(_ items: JSONValue, minItems: Int? = nil) -> JSONValue {
        var o: [String: JSONValue] = ["type": .string("array"), "items": items]
        if let minItems { o["minItems"] = .integer(minItems) }
        return .object(o)
    }
    package static func oneOf(_ options: [JSONValue]) -> JSONValue { .object(["oneOf": .array(options)]) }
    package static func anyOf(_ options: [JSONValue]) -> JSONValue { .object(["anyOf": .array(options)]) }
    package static let anyObject: JSONValue = .object(["type": .string("object")])
}
