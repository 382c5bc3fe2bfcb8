import { describe, expect, it } from "vitest";
import { othersChanges, othersNote } from "./listedits";

const v = (name: string) => ({ vendor_id: `id-${name}`, vendor_name: name });

describe("what someone else changed", () => {
  it("one's own add is not someone else's", () => {
    const c = othersChanges([v("Existing")], { added: [{ ...v("Betamax"), is_custom: true }], removed: [] }, [v("Existing"), v("Betamax")]);
    expect(c).toEqual({ added: [], removed: [] });
    expect(othersNote(c)).toBe("");
  });
  it("a vendor that appeared meanwhile was added by someone else", () => {
    const c = othersChanges([], { added: [{ ...v("Betamax"), is_custom: true }], removed: [] }, [v("Alphawave"), v("Betamax")]);
    expect(othersNote(c)).toBe("1 vendor added by someone else: Alphawave");
  });
  it("vendors gone besides one's own removal were removed by someone else", () => {
    const c = othersChanges([v("A"), v("B"), v("C")], { added: [], removed: [{ ...v("A"), is_custom: true }] }, [v("D")]);
    expect(othersNote(c)).toBe("1 vendor added by someone else: D; 2 vendors removed by someone else: B, C");
  });
});
