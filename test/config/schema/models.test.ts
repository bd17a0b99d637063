// models.json with keys that name Object.prototype properties: each is one problem naming the field,
// and the file's other providers still load.
import { describe, expect, it } from "vitest";
import { formatConfigProblem } from "../../../src/config/problems.js";
import { modelsProviderProblem } from "../../../src/config/schema/models.js";
import { checkModelsConfig } from "../../../src/settings/models-file.js";
import { PROTOTYPE_KEYS } from "./crafted-keys.js";

const good = { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", models: [{ id: "m" }] };
/** JSON text with `inner` spliced in raw, so `__proto__` arrives as an own key as JSON.parse gives it. */
const file = (crafted: string) => `{"providers": {"ok": ${JSON.stringify(good)}, "bad": ${crafted}}}`;
const model = (extra: string) => `{"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions", "models": [{"id": "m", ${extra}}]}`;

describe("models.json with prototype-property keys", () => {
	it.each(PROTOTYPE_KEYS)("%s in a cost, a model, a provider or compat is one problem; the other provider loads", (key) => {
		for (const [crafted, field] of [
			[model(`"cost": {"${key}": 1}`), `providers.bad.models[0].cost.${key}`],
			[model(`"${key}": 1`), `providers.bad.models[0].${key}`],
			[`{"${key}": 1, "baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions", "models": []}`, `providers.bad.${key}`],
			[
				`{"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions", "compat": {"${key}": true}, "models": []}`,
				`providers.bad.compat.${key}`,
			],
		]) {
			const { providers, problems } = checkModelsConfig(file(crafted), "models.json");
			expect(providers.map((p) => p.name)).toEqual(["ok"]);
			expect(problems).toHaveLength(1);
			expect(formatConfigProblem(problems[0])).toMatch(new RegExp(`^models\\.json: ${field.replace(/[.[\]]/g, "\\$&")}: unknown field`));
			expect(problems[0].provider).toBe("bad");
		}
	});

	it("a provider named like a prototype property is data: checked like any other name", () => {
		expect(modelsProviderProblem("constructor", good, "models.json")).toBeUndefined();
		expect(modelsProviderProblem("toString", { ...good, headers: { a: 1 } }, "models.json")).toEqual({
			file: "models.json",
			field: "providers.toString.headers.a",
			problem: "must be a string",
			provider: "toString",
		});
		expect(modelsProviderProblem("x", [], "models.json")?.problem).toBe("must be an object");
	});
});
