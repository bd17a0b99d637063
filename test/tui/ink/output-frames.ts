// Random frames for Ink's Output: pieces of text with wide characters, emoji, styles and links,
// written anywhere (also off the frame), under clips and line transformers.
import fc from "fast-check";

const piece = fc.constantFrom(
	"a",
	"• – …",
	"╭─╮│",
	"word",
	" ",
	"世界",
	"👋",
	"\x1b[1mbold\x1b[22m",
	"\x1b[31mred",
	"\x1b[39m",
	"\x1b[2m·\x1b[22m",
	"\x1b[0m",
	"\x1b]8;;https://x.y\x07link\x1b]8;;\x07",
	"\n",
);
export const text = fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(""));
const transformer = fc.constantFrom(
	(line: string) => line.toUpperCase(),
	(line: string, index: number) => `${index}>${line}`,
	(line: string) => `\x1b[7m${line}\x1b[27m`,
);
const clip = fc.record(
	{
		x1: fc.integer({ min: -2, max: 20 }),
		x2: fc.integer({ min: 0, max: 30 }),
		y1: fc.integer({ min: -2, max: 8 }),
		y2: fc.integer({ min: 0, max: 12 }),
	},
	{ requiredKeys: [] },
);
const operation = fc.oneof(
	{
		weight: 6,
		arbitrary: fc.record({
			type: fc.constant("write" as const),
			x: fc.integer({ min: -3, max: 32 }),
			y: fc.integer({ min: -3, max: 12 }),
			text,
			transformers: fc.array(transformer, { maxLength: 2 }),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ type: fc.constant("clip" as const), clip }) },
	{ weight: 1, arbitrary: fc.constant({ type: "unclip" as const }) },
);
export const frame = fc.record({
	width: fc.integer({ min: 1, max: 30 }),
	height: fc.integer({ min: 0, max: 10 }),
	operations: fc.array(operation, { maxLength: 12 }),
});

export interface FilledOutput {
	get(): { output: string; height: number };
}
export type OutputClass = new (options: { width: number; height: number }) => any;

export type Frame = { width: number; height: number; operations: Array<Record<string, any>> };

/** An instance of Ink's Output class (patched or not) with the frame's operations done on it. */
export function fillOutput(Output: OutputClass, { width, height, operations }: Frame): FilledOutput {
	const output = new Output({ width, height });
	for (const op of operations) {
		if (op.type === "write") output.write(op.x, op.y, op.text, { transformers: op.transformers });
		else if (op.type === "clip") output.clip(op.clip);
		else output.unclip();
	}
	return output as any;
}
