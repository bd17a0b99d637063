// Glob patterns for find and grep's `glob`, compiled once to a RegExp (Node 20 has no fs.glob).
// A pattern without "/" matches the file name at any depth (`*.ts`); one with "/" matches the path
// relative to the search root (`src/**/*.test.ts`).

/** A predicate on a "/"-separated path relative to the search root. */
export type GlobMatcher = (relativePath: string) => boolean;

export function compileGlob(pattern: string): GlobMatcher {
	const cleaned = pattern.replace(/^\.\//, "");
	if (!cleaned.includes("/")) {
		// Sticky: tried at the file name's start, with no copy of the name (find tests every path).
		const name = new RegExp(`${globToRegexSource(cleaned)}$`, "y");
		return (rel) => {
			name.lastIndex = rel.lastIndexOf("/") + 1;
			return name.test(rel);
		};
	}
	const regex = new RegExp(`^${globToRegexSource(cleaned)}$`);
	return (rel) => regex.test(rel);
}

function globToRegexSource(glob: string): string {
	let out = "";
	let braceDepth = 0;
	for (let i = 0; i < glob.length; i++) {
		const c = glob[i] as string;
		if (c === "*") {
			if (glob[i + 1] === "*") {
				// `**/` matches zero or more folders; a bare `**` matches anything.
				if (glob[i + 2] === "/") {
					out += "(?:.*/)?";
					i += 2;
				} else {
					out += ".*";
					i += 1;
				}
			} else {
				out += "[^/]*";
			}
		} else if (c === "?") {
			out += "[^/]";
		} else if (c === "[") {
			const end = glob.indexOf("]", i + 1);
			if (end === -1) {
				out += "\\[";
			} else {
				let body = glob.slice(i + 1, end).replace(/\\/g, "\\\\");
				if (body.startsWith("!")) body = `^${body.slice(1)}`;
				out += `[${body}]`;
				i = end;
			}
		} else if (c === "{") {
			braceDepth++;
			out += "(?:";
		} else if (c === "}" && braceDepth > 0) {
			braceDepth--;
			out += ")";
		} else if (c === "," && braceDepth > 0) {
			out += "|";
		} else {
			out += c.replace(/[.+^$()|\\{}\]]/g, "\\$&");
		}
	}
	return out;
}
