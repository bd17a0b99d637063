// The `---` header of command and skill files: a small YAML subset (`key: value`, quoted values, and
// indented continuation lines), which is all the Agent Skills and Claude Code command formats use.
// A full YAML parser would be a dependency for three fields.

export interface Frontmatter {
	/** Keys as written; values are single-line strings (continuations joined by a space). */
	attributes: Record<string, string>;
	/** The text after the closing `---` (the whole text when there is no header). */
	body: string;
}

const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /\r?\n---[ \t]*(?:\r?\n|$)/;

export function parseFrontmatter(text: string): Frontmatter {
	const source = text.replace(/^\uFEFF/, "");
	const open = OPEN.exec(source);
	if (!open) return { attributes: {}, body: source };
	const rest = source.slice(open[0].length);
	const close = CLOSE.exec(`\n${rest}`);
	if (!close) return { attributes: {}, body: source };
	const header = rest.slice(0, Math.max(0, close.index - 1));
	const body = rest.slice(close.index - 1 + close[0].length);
	return { attributes: parseHeader(header), body };
}

function parseHeader(header: string): Record<string, string> {
	const attributes: Record<string, string> = {};
	let last: string | undefined;
	for (const line of header.split(/\r?\n/)) {
		if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
		const entry = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
		if (entry) {
			last = entry[1];
			const value = entry[2].trim();
			// `key: >` / `key: |` start a block; its indented lines follow.
			attributes[last] = value === ">" || value === "|" || value === ">-" || value === "|-" ? "" : unquote(value);
		} else if (last && /^\s/.test(line)) {
			attributes[last] = [attributes[last], line.trim()].filter(Boolean).join(" ");
		}
	}
	return attributes;
}

function unquote(value: string): string {
	if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0]) {
		const inner = value.slice(1, -1);
		return value[0] === "'" ? inner.replace(/''/g, "'") : inner.replace(/\\"/g, '"').replace(/\\n/g, "\n");
	}
	return value;
}
