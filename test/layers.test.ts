// The layering rule, checked on the real import statements: each layer imports only from layers
// below it. Folders not in the table (a new layer under construction) are not checked here.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
/** Lower number = lower layer. Equal numbers may not import each other either, except within a folder. */
const rank: Record<string, number> = {
	"src/config": 0,
	// Sanitiser, JSON-line escaping, the secret store: pure, importing nothing, used by every layer.
	"src/safety": 0,
	"src/ai": 1,
	// The user's model configuration (models.json, auth.json): it builds src/ai's data, so it sits just
	// above it; src/ai takes the result as plain data and reads no file of the user's configuration.
	"src/settings": 1.5,
	"src/agent": 2,
	"src/tools": 3,
	// The permission policy and gate: above the tools (edit previews), below the session that wires it.
	"src/permissions": 3.5,
	// What users bring (custom commands, skills, MCP servers): beside the permissions, neither imports
	// the other; the session wires both.
	"src/extensions": 3.5,
	"src/session": 4,
	"src/tui": 5,
	"src/modes": 6,
	"src/cli": 7,
	bin: 8,
};

/**
 * The rooms of the UI (src/tui/<room>/), lower floor first. A room imports only from rooms on lower
 * floors: not from one above it, not from one beside it (same floor), so the rooms form an order with
 * no cycle. Files directly in src/tui/ (mount.ts) are the top floor.
 */
const tuiFloor: Record<string, number> = {
	// Leaves: text measuring, sanitising for the screen, theme; the frame scheduler.
	text: 0,
	frame: 0,
	// The key table and key → intent; everything that relies on Ink's internals (one entry file).
	keys: 1,
	ink: 1,
	markdown: 1,
	// Generic widgets: the list picker, the one-line field.
	widgets: 2,
	input: 3,
	transcript: 3,
	overlays: 4,
	status: 4,
	// Warm-ups after the first frame: they render a transcript's text once off the key path.
	"warm-up": 5,
	app: 6,
	".": 7,
};
const TUI = "src/tui";

/**
 * The UI takes values only from the leaves (src/safety, src/config) and from itself; from every other
 * layer it imports types, and talks to the session through `AgentSessionApi`. These are the exceptions,
 * each a pure function or constant that the UI must agree on with a lower layer exactly.
 */
const UI_VALUE_IMPORTS: Record<string, string> = {
	"src/tui/input/input-history.ts → src/session/login-command.ts":
		"the same test the session uses, so a /login line (it carries a key) is never written to the history file",
	"src/tui/input/project-paths.ts → src/tools/walk-files.ts": "the @ index lists files with the same ignore rules as the find tool",
	"src/tui/input/project-paths.ts → src/tools/ripgrep-files.ts": "the @ index lists files through ripgrep with the find tool's arguments",
	"src/tui/input/project-paths.ts → src/tools/ripgrep-run.ts":
		"the @ index reads ripgrep's listing as the find tool does, a pipe chunk at a time",
	"src/tui/mount.ts → src/ai/read-pace.ts": "the seam that paces socket reads by the app's frame clock while the app is mounted",
	"src/tui/overlays/first-start.tsx → src/ai/constants.ts": "the demo model's name and the key env vars it names",
	"src/tui/transcript/session-view.ts → src/session/prompt-attachments.ts":
		"the same split of a prompt into typed text and @file attachments the session made, so a file shows as one row live and on resume",
	"src/tui/overlays/elicitation-form-state.ts → src/extensions/mcp/elicitation.ts":
		"the form starts from and checks the answer with the same fields the session checks an rpc answer with",
	"src/tui/overlays/TrustPrompt.tsx → src/extensions/mcp/trust-details.ts":
		"the MCP servers' whole commands and env values, code-running names flagged, in the same lines every mode prints",
};
const UI_VALUE_SOURCES = ["src/safety", "src/config", TUI];
/** The one file of src/tui/ink/ that anything outside it may import. */
const INK_ENTRY = "src/tui/ink/index.ts";

function roomOf(file: string): string | undefined {
	const rel = relative(join(root, TUI), file).split("\\").join("/");
	if (rel.startsWith("..")) return undefined;
	const slash = rel.indexOf("/");
	return slash < 0 ? "." : rel.slice(0, slash);
}

function layerOf(file: string): string | undefined {
	const rel = relative(root, file).split("\\").join("/");
	return Object.keys(rank).find((layer) => rel === layer || rel.startsWith(`${layer}/`));
}

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return /\.(ts|tsx|js|mjs)$/.test(name) ? [path] : [];
	});
}

/** The relative imports of a file that bring values (not `import type`, not only `type` names). */
function valueImports(file: string): string[] {
	const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
	const out: string[] = [];
	for (const statement of source.statements) {
		if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
		const spec = statement.moduleSpecifier;
		if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith(".")) continue;
		if (ts.isExportDeclaration(statement) ? statement.isTypeOnly : typeOnly(statement.importClause)) continue;
		out.push(resolve(dirname(file), spec.text));
	}
	return out;
}

function typeOnly(clause: ts.ImportClause | undefined): boolean {
	if (!clause) return false; // `import "./x.js"` runs the module
	if (clause.isTypeOnly) return true;
	const named = clause.namedBindings;
	return !clause.name && named !== undefined && ts.isNamedImports(named) && named.elements.every((e) => e.isTypeOnly);
}

function relativeImports(file: string): string[] {
	const text = readFileSync(file, "utf8");
	const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
	return specs.map((spec) => resolve(dirname(file), spec));
}

describe("layers", () => {
	const files = ["src", "bin"].flatMap((dir) => sourceFiles(join(root, dir)));

	it("finds the source files", () => {
		expect(files.length).toBeGreaterThan(50);
	});

	it("no layer imports from a layer above it or beside it", () => {
		const upward: string[] = [];
		for (const file of files) {
			const from = layerOf(file);
			if (!from) continue;
			for (const target of relativeImports(file)) {
				const to = layerOf(target);
				if (!to || to === from) continue;
				if (rank[to] >= rank[from]) upward.push(`${relative(root, file)} imports ${relative(root, target)}`);
			}
		}
		expect(upward).toEqual([]);
	});

	it("every room of src/tui has a floor", () => {
		const rooms = readdirSync(join(root, TUI)).filter((name) => statSync(join(root, TUI, name)).isDirectory());
		expect(rooms.filter((room) => !(room in tuiFloor))).toEqual([]);
	});

	it("no room of src/tui imports from a room above it or beside it", () => {
		const wrong: string[] = [];
		for (const file of files) {
			const from = roomOf(file);
			if (from === undefined) continue;
			for (const target of relativeImports(file)) {
				const to = roomOf(target);
				if (to === undefined || to === from) continue;
				if (tuiFloor[to] >= tuiFloor[from]) wrong.push(`${relative(root, file)} imports ${relative(root, target)}`);
			}
		}
		expect(wrong).toEqual([]);
	});

	it("nothing outside src/tui/ink imports a file inside it but its entry file", () => {
		const inside = (path: string) => relative(root, path).split("\\").join("/").startsWith(`${TUI}/ink/`);
		const reaching = files
			.filter((file) => !inside(file))
			.flatMap((file) =>
				relativeImports(file)
					.filter((target) => inside(target) && relative(root, target).replace(/\.js$/, ".ts") !== INK_ENTRY)
					.map((target) => `${relative(root, file)} imports ${relative(root, target)}`),
			);
		expect(reaching).toEqual([]);
	});

	it("src/ai reads no user config: no file system, nothing of src/config (src/settings reads it and hands over data)", () => {
		const reads = files
			.filter((f) => layerOf(f) === "src/ai")
			.flatMap((f) => {
				const text = readFileSync(f, "utf8");
				const fs = [...text.matchAll(/(?:from|import)\s*\(?\s*["'](?:node:)?fs(?:\/promises)?["']/g)].map((m) => m[0]);
				const config = relativeImports(f).filter((t) => layerOf(t) === "src/config");
				return [...fs, ...config.map((t) => relative(root, t))].map((what) => `${relative(root, f)} → ${what}`);
			});
		expect(reads).toEqual([]);
	});

	it("the UI imports values only from the leaves and itself, but for the listed exceptions", () => {
		const found = files
			.filter((f) => layerOf(f) === TUI)
			.flatMap((f) =>
				valueImports(f)
					.filter((target) => !UI_VALUE_SOURCES.includes(layerOf(target) ?? ""))
					.map((target) => `${relative(root, f)} → ${relative(root, target).replace(/\.js$/, ".ts")}`),
			)
			.map((arrow) => (existsSync(join(root, arrow.split(" → ")[1])) ? arrow : arrow.replace(/\.ts$/, ".tsx")));
		expect(found.filter((arrow) => !(arrow in UI_VALUE_IMPORTS))).toEqual([]);
		// An exception no longer used is removed from the table, so the table says what is true.
		expect(Object.keys(UI_VALUE_IMPORTS).filter((arrow) => !found.includes(arrow))).toEqual([]);
	});

	it("src/config imports nothing of ours", () => {
		const ours = files
			.filter((f) => layerOf(f) === "src/config")
			.flatMap((f) =>
				relativeImports(f)
					.filter((t) => layerOf(t) !== "src/config")
					.map((t) => `${relative(root, f)} → ${relative(root, t)}`),
			);
		expect(ours).toEqual([]);
	});
});
