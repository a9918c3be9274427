import JetsimCore
import Testing

/// Names as users type them: any case, a typo answered with the nearest known name, several parameters in a list.
@Suite struct NameSuggestionTests {
    @Test func theNearestNameWithinATypoIsSuggested() {
        let policies = PolicyRegistry.builtIns.map(\.name)
        #expect(NameSuggestion.closest(to: "lur", among: policies) == "lru")
        #expect(NameSuggestion.closest(to: "LARGST", among: policies) == "largest")
        #expect(NameSuggestion.closest(to: "linux_oom", among: policies) == "linux-oom")
        #expect(NameSuggestion.closest(to: "belady-plus", among: policies) == nil, "nothing near: no guess")
        #expect(NameSuggestion.closest(to: "iphone-xz", among: DevicePresets.names) == "iphone-x")
        #expect(PolicySpecError.unknownPolicy("lur", known: policies).description.contains("did you mean 'lru'?"))
        #expect(!PolicySpecError.unknownPolicy("zzzzzzzz", known: policies).description.contains("did you mean"))
    }

    @Test func policyAndDeviceNamesIgnoreCase() throws {
        #expect(PolicyRegistry.entry(named: "LRU")?.name == "lru")
        let env = PolicyEnvironment(seed: 1, device: .cache(capacityBytes: 1 << 20))
        let cost = try PolicyRegistry.make(PolicySpec(parsing: "Cost:alpha=0.5"), environment: env)
        #expect(cost.descriptor.displayName == "cost(alpha=0.5,half_life_h=24)")
        #expect(DevicePresets.named("iPhone-X")?.name == "iphone-x")
    }

    @Test func aPolicyListKeepsEachSpecsParameters() throws {
        #expect(PolicySpec.list("cost:alpha=0.5;half_life_h=12,lru") == ["cost:alpha=0.5;half_life_h=12", "lru"])
        #expect(PolicySpec.list("cost:alpha=0.5,half_life_h=12, lru") == ["cost:alpha=0.5,half_life_h=12", "lru"])
        #expect(PolicySpec.list("xnu,lru,,Policies/swam.yaml") == ["xnu", "lru", "Policies/swam.yaml"])
        let semicolons = try PolicySpec(parsing: "cost:alpha=0.5;half_life_h=12")
        #expect(semicolons == PolicySpec(name: "cost", parameters: ["alpha": "0.5", "half_life_h": "12"]))
        #expect(semicolons == (try PolicySpec(parsing: "cost:alpha=0.5,half_life_h=12")))
        #expect(throws: PolicySpecError.self) { try PolicySpec(parsing: "cost:alpha=0.5;;") }
    }
}
