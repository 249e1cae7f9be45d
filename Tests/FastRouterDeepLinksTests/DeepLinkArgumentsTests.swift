import Foundation
import Testing
import FastRouter
import FastRouterDeepLinks

private enum ElementType: String, CaseIterable { case fire, water, grass }
private enum Tab: Int { case feed = 1, profile = 2 }
private enum Region: String, LinkParameterValue { case kanto, johto }

@Suite struct DeepLinkArgumentsTests {
    private func arguments(_ pattern: String, _ url: String) throws -> DeepLinkArguments {
        let router = Router<Void>()
        try router.add(pattern)
        return DeepLinkArguments(try #require(try router.match(url)).parameters)
    }

    @Test func scalarsConvertByDynamicMemberAndByName() throws {
        let arguments = try arguments(
            "/p/{pokedexID:int}/:name",
            "/p/25/Pika%20chu?weight=6.5&shiny=YES&id=3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b&back=https%3A%2F%2Fx.test%2Fa&big=18446744073709551615")
        let id: Int = try arguments.pokedexID
        let name: String = try arguments.name
        let weight: Double = try arguments.weight
        let shiny: Bool = try arguments.shiny
        let uuid: UUID = try arguments.id
        let back: URL = try arguments.back
        let big: UInt64 = try arguments.big
        #expect(id == 25)
        #expect(name == "Pika chu")
        #expect(weight == 6.5)
        #expect(shiny)
        #expect(uuid == UUID(uuidString: "3F2B8C1E-9A4D-4E6F-8B7A-1C2D3E4F5A6B"))
        #expect(back.host == "x.test")
        #expect(big == UInt64.max)
        #expect(try arguments.parameter("pokedexID", as: Int64.self) == 25)
        #expect(try arguments.parameter("weight", as: Float.self) == 6.5)
        #expect(arguments.contains("shiny"))
        #expect(!arguments.contains("nothing"))
    }

    @Test func enumsConvertWithoutDeclaringAnything() throws {
        let arguments = try arguments("/search/:type", "/search/water?types=fire,grass&tab=2&types=water")
        let type: ElementType = try arguments.type
        let types: [ElementType] = try arguments.types
        let tab: Tab = try arguments.tab
        #expect(type == .water)
        // Every value of the name, each split on commas.
        #expect(types == [.fire, .grass, .water])
        #expect(tab == .profile)
        #expect(try arguments.parameter("types", as: [ElementType].self) == [.fire, .grass, .water])
        #expect(try arguments.parameter("type", as: ElementType.self) == .water)
        let missing: ElementType? = try arguments.missing
        let missingList: [ElementType]? = try arguments.missing
        #expect(missing == nil)
        #expect(missingList == nil)
    }

    @Test func enumsDeclaringTheProtocolWorkEveryWay() throws {
        let arguments = try arguments("/r/:region", "/r/johto?visited=kanto,johto")
        let region: Region = try arguments.region
        let visited: [Region] = try arguments.visited
        let maybe: Region? = try arguments.region
        #expect(region == .johto)
        #expect(visited == [.kanto, .johto])
        #expect(maybe == .johto)
        #expect(try arguments.parameter("region", as: Region.self) == .johto)
        #expect(Region.johto.linkParameter == "johto")
    }

    @Test func listsOfScalarsSplitOnCommasAndSkipEmptyItems() throws {
        let arguments = try arguments("/l", "/l?ids=1,,2&ids=3&none=&flags=true,no")
        let ids: [Int] = try arguments.ids
        let none: [Int] = try arguments.none
        let flags: [Bool] = try arguments.flags
        #expect(ids == [1, 2, 3])
        #expect(none == [])
        #expect(flags == [true, false])
        #expect([1, 2].linkParameter == "1,2")
    }

    @Test func optionalsAreNilOnlyWhenMissing() throws {
        let arguments = try arguments("/o", "/o?page=x&empty=")
        let absent: Int? = try arguments.absent
        #expect(absent == nil)
        #expect(throws: DeepLinkArgumentError(name: "page", reason: .invalid(value: "x", expected: "Int"))) {
            let _: Int? = try arguments.page
        }
        #expect(try arguments.parameterIfPresent("empty", as: String.self) == "")
        #expect(try arguments.parameterIfPresent("absent", as: [ElementType].self) == nil)
        #expect(try arguments.parameterIfPresent("absent", as: ElementType.self) == nil)
    }

    @Test func errorsNameTheParameterValueAndType() throws {
        let arguments = try arguments("/p/:id", "/p/pikachu?types=fire,rock&big=99999999999999999999&ratio=nan&hex=0x10")
        #expect(throws: DeepLinkArgumentError(name: "id", reason: .invalid(value: "pikachu", expected: "Int"))) {
            let _: Int = try arguments.id
        }
        #expect(throws: DeepLinkArgumentError(name: "types", reason: .invalid(value: "rock", expected: "ElementType"))) {
            let _: [ElementType] = try arguments.types
        }
        #expect(throws: DeepLinkArgumentError(name: "missing", reason: .missing)) {
            let _: String = try arguments.missing
        }
        #expect(throws: DeepLinkArgumentError.self) { let _: Int = try arguments.big }
        #expect(throws: DeepLinkArgumentError.self) { let _: Double = try arguments.ratio }
        #expect(throws: DeepLinkArgumentError.self) { let _: Double = try arguments.hex }
        #expect(throws: DeepLinkArgumentError.self) { let _: UInt = try arguments.parameter("id") }
        #expect(DeepLinkArgumentError(name: "id", reason: .invalid(value: "pikachu", expected: "Int")).description
                == "parameter 'id': 'pikachu' is not a valid Int")
        #expect(DeepLinkArgumentError(name: "types", reason: .missing).description == "missing parameter 'types'")
    }

    @Test func pathValuesWinOverQueryValuesOfTheSameName() throws {
        let arguments = try arguments("/u/:id", "/u/1?id=2")
        let id: Int = try arguments.id
        let all: [Int] = try arguments.id
        #expect(id == 1)
        #expect(all == [1, 2])
    }

    @Test func boolAcceptsTheUsualSpellings() {
        for text in ["true", "TRUE", "1", "yes", "On"] { #expect(Bool(linkParameter: text) == true) }
        for text in ["false", "0", "NO", "off"] { #expect(Bool(linkParameter: text) == false) }
        for text in ["", "2", "y", "truthy"] { #expect(Bool(linkParameter: text) == nil) }
    }

    @Test func valuesWriteTheTextTheyReadBack() {
        #expect(Int(linkParameter: (-42).linkParameter) == -42)
        #expect(Double(linkParameter: 0.1.linkParameter) == 0.1)
        #expect(Double(linkParameter: "1e3") == 1000)
        #expect(Double(linkParameter: "inf") == nil)
        let uuid = UUID()
        #expect(UUID(linkParameter: uuid.linkParameter) == uuid)
        #expect(URL(linkParameter: "") == nil)
        #expect([Region.kanto, .johto].linkParameter == "kanto,johto")
    }
}
