// Draws a frame in which only the live tail moved without React, Yoga or Ink's Output: the parts that
// changed (the streaming tail, the status line under it) are each one <Text> of rows we wrapped
// ourselves, so their new rows are known without layout. The writer puts the new text into Ink's tree
// (as React's commit would, marked for layout) and asks Ink to render, as a commit does; Ink's onRender
// (patched, patches.ts) then takes the frame from `frame()`: Ink's last frame with the parts' old rows
// replaced, each built by the same code and cache as Ink's Output (row-cached-output.ts). So the frame
// goes out at the same moment, through the same throttle and log-update, as React's would. Anything
// this cannot prove it draws as Ink would (a part appearing or vanishing, a row Ink would wrap, a layout
// or render of Ink's own in between) is left to React: `draw` returns false, or `frame()` lays the
// tree out and lets Ink render it. test/tui/ink/patched/live-frame.test.tsx streams random
// replies through both and requires the same bytes, frame by frame.
import type { InkFrame, InkInstance } from "./ink-instances.js";
import { plainWidth, rowBuilder, staticRows } from "./row-cached-output.js";

/** The bits of Ink's DOM (ink/build/dom.js) a part is made of. */
export interface InkYoga {
	getComputedTop(): number;
	getComputedLeft(): number;
	getComputedWidth(): number;
	getComputedHeight(): number;
	markDirty(): void;
}
export interface InkElement {
	nodeName: string;
	parentNode?: InkElement;
	childNodes: InkNode[];
	yogaNode?: InkYoga;
	internal_transform?: unknown;
	style?: { textWrap?: string };
}
interface InkTextNode {
	nodeName: "#text";
	nodeValue: string;
}
type InkNode = InkElement | InkTextNode;

/** One live part: a <Box> holding exactly one <Text> whose lines are `rows` (each fits the box). */
export interface LivePart {
	/** The Box element (React ref), or null while the part renders nothing. */
	box: InkElement | null;
	/** The part's rows now, as React would render them (ANSI; "" for an empty row). */
	rows(): readonly string[];
}

/**
 * History that became final since React's last <Static> output: the text History's <Text> would hold
 * for it (rows already cut to `columns`), and what to call once it is on its way to the terminal.
 */
export interface NewHistory {
	text: string;
	columns: number;
	printed(): void;
}

/** Where the part's rows were in Ink's last frame. */
interface Placed {
	top: number;
	left: number;
	height: number;
	width: number;
	text: InkElement;
	value: InkTextNode;
}

/** The one string React gives the part's <Text>: rows joined, an empty row as a space (Ink drops it anyway). */
export const partText = (rows: readonly string[]): string => rows.map((row) => row || " ").join("\n");

export class LiveFrameWriter {
	/** Ink's own render count when `placed` last matched Ink's last frame; undefined: read it from Yoga. */
	private placedAt: number | undefined;
	private placed: (Placed | undefined)[] = [];
	/** New rows in Ink's tree, waiting for Ink to render them: Ink's layout count when they went in. */
	private waiting:
		| {
				layouts: number | undefined;
				rows: (readonly string[] | undefined)[];
				/** A frame with new history, spliced already: Ink renders it at once. */
				ready?: { frame: InkFrame; printed(): void };
		  }
		| undefined;
	/** Ink's layout count when the tree last got text its layout has not seen. */
	private staleAt: number | undefined;

	/** The instance whose onRender asks this writer first. */
	private hooked: InkInstance | undefined;

	/** Per part, the rows `nextRows` last let through and the width they were checked against. */
	private checked: (Checked | undefined)[] = [];
	/** Per part, the rows last put into a frame and each one as built (`builder.row`) at that place. */
	private built: (Built | undefined)[] = [];
	/** The last frame this writer handed Ink, as rows: the next splice starts from them while Ink has not drawn another. */
	private lastFrame: { output: string; lines: string[] } | undefined;

	constructor(private readonly parts: readonly LivePart[]) {}

	/**
	 * Puts the parts' current rows into Ink's tree and asks Ink to draw them; false when React must.
	 * With `history`, the frame also prints it above the live region, as <Static> would: Ink renders it
	 * at once (as a commit with new <Static> output makes it), so it needs no render behind the throttle.
	 */
	draw(ink: InkInstance | undefined, history?: NewHistory): boolean {
		if (!ink || ink.isScreenReaderEnabled || ink.rudderRenders === undefined || !rowBuilder()) return false;
		if (this.hooked !== ink) {
			this.hooked = ink;
			ink.rudderLiveFrame = () => this.frame(ink);
		}
		// Rows still waiting for Ink's throttle: the waiting render takes the newest ones.
		if (!this.waiting) {
			if (ink.hasPendingThrottledRender || !this.place(ink)) return false;
		} else if (history || ink.rudderLayouts !== this.waiting.layouts) return false;
		const staticOutput = history ? this.staticOutput(ink, history) : undefined;
		if (history && staticOutput === undefined) return false;
		const rows = this.nextRows();
		if (!rows) return false;
		// With history the frame goes out now: spliced before the tree changes, handed over by frame().
		const ready = history ? this.splice(ink, rows, staticOutput) : undefined;
		if (history && !ready) return false;
		for (let i = 0; i < rows.length; i++) {
			const at = this.placed[i];
			const next = rows[i];
			if (!at || !next) continue;
			// Ink's tree holds what will be on screen, marked for layout, as React's commitTextUpdate leaves it.
			at.value.nodeValue = partText(next);
			at.text.yogaNode?.markDirty();
		}
		this.staleAt = ink.rudderLayouts;
		const render = !this.waiting;
		this.waiting = { layouts: ink.rudderLayouts, rows, ready: ready && history ? { frame: ready, printed: history.printed } : undefined };
		if (ready) ink.rootNode.onImmediateRender();
		else if (render) ink.rootNode.onRender();
		return true;
	}

	/** What Ink's renderer gives for <Static> holding `history`, or undefined when Ink would wrap or sanitise it. */
	private staticOutput(ink: InkInstance, history: NewHistory): string | undefined {
		const width = ink.rootNode.yogaNode?.getComputedWidth();
		if (!ink.rootNode.staticNode?.yogaNode || width !== history.columns) return undefined;
		const builder = rowBuilder();
		const lines = history.text.split("\n");
		if (!builder || lines.some((line) => !fits(line, width, builder))) return undefined;
		const rows = staticRows(width, lines);
		return rows && `${rows.join("\n")}\n`;
	}

	/** Called by Ink's onRender: the spliced frame, or undefined for Ink to render its (laid out) tree. */
	frame(ink: InkInstance): InkFrame | undefined {
		const waiting = this.waiting;
		this.waiting = undefined;
		if (waiting?.ready && ink.rudderLayouts === waiting.layouts) {
			// Printed only once Ink has it: a frame Ink did not take leaves the history to React.
			waiting.ready.printed();
			return waiting.ready.frame;
		}
		const spliced = waiting && !waiting.ready && ink.rudderLayouts === waiting.layouts ? this.splice(ink, waiting.rows) : undefined;
		if (spliced) return spliced;
		this.placedAt = undefined;
		if (this.staleAt !== undefined && this.staleAt === ink.rudderLayouts) ink.calculateLayout();
		this.staleAt = undefined;
		return undefined;
	}

	/** `placed` as of Ink's last frame: kept since our last splice, or read from Ink's layout of that frame. */
	private place(ink: InkInstance): boolean {
		if (this.placedAt === ink.rudderRenders) return true;
		this.placedAt = undefined;
		if (ink.rudderRenderedLayout !== ink.rudderLayouts || ink.rudderOutput === undefined) return false;
		const placed = this.parts.map((part) => place(part.box));
		if (placed.some((p) => p === null)) return false;
		this.placed = placed as (Placed | undefined)[];
		this.placedAt = ink.rudderRenders;
		return true;
	}

	/**
	 * Each part's rows now, or undefined when a part would appear, vanish or not be drawn as it is. Only
	 * rows that differ from the ones let through last time (at the same index, for a box as wide) are
	 * measured: while a reply streams that is the open paragraph's last row or two.
	 */
	private nextRows(): (readonly string[] | undefined)[] | undefined {
		const builder = rowBuilder();
		const out: (readonly string[] | undefined)[] = [];
		for (let i = 0; i < this.parts.length; i++) {
			const rows = this.parts[i].rows();
			const at = this.placed[i];
			if (!at) {
				if (rows.length > 0) return undefined;
				out.push(undefined);
				continue;
			}
			if (!builder || rows.length === 0) return undefined;
			const seen = this.checked[i];
			const known = seen !== undefined && seen.width === at.width ? seen.rows : NO_ROWS;
			for (let j = 0; j < rows.length; j++) {
				const row = rows[j];
				if (j < known.length && known[j] === row) continue;
				if (!fits(row || " ", at.width, builder)) return undefined;
			}
			this.checked[i] = { width: at.width, rows };
			out.push(rows);
		}
		return out;
	}

	/** The part's rows as `builder.row` builds them at `at`; a row the part had at that index before is not built again. */
	private buildRows(i: number, at: Placed, width: number, rows: readonly string[], builder: RowBuilder): string[] {
		const before = this.built[i];
		const known = before !== undefined && before.width === width && before.left === at.left ? before : undefined;
		const out = new Array<string>(rows.length);
		for (let j = 0; j < rows.length; j++) {
			const row = rows[j];
			out[j] =
				known !== undefined && j < known.rows.length && known.rows[j] === row ? known.out[j] : builder.row(width, at.left, row || " ");
		}
		this.built[i] = { width, left: at.left, rows, out };
		return out;
	}

	/** Ink's last frame with the parts' rows replaced; undefined when it does not match what was placed. */
	private splice(ink: InkInstance, rows: (readonly string[] | undefined)[], staticOutput?: string): InkFrame | undefined {
		const builder = rowBuilder();
		const staticNode = ink.rootNode.staticNode;
		if (!builder || this.placedAt !== ink.rudderRenders || (staticNode?.yogaNode?.getComputedHeight() ?? 0) !== 0) return undefined;
		const last = ink.rudderOutput;
		if (last === undefined) return undefined;
		// Ink's last frame is the one this writer handed it (the usual case while a reply streams): its rows are kept.
		const kept = this.lastFrame !== undefined && this.lastFrame.output === last ? this.lastFrame.lines : undefined;
		this.lastFrame = undefined;
		const lines = kept ?? last.split("\n");
		const width = ink.rootNode.yogaNode?.getComputedWidth() ?? 0;
		const next: { at: Placed; index: number; rows: readonly string[] }[] = [];
		for (let i = 0; i < this.placed.length; i++) {
			const at = this.placed[i];
			const partRows = rows[i];
			if (at && partRows) next.push({ at, index: i, rows: partRows });
		}
		// Almost always in order already (the tail above the status line): Array#sort costs more than the check.
		if (!byTop(next)) next.sort((a, b) => a.at.top - b.at.top);
		for (let i = 0; i < next.length; i++) {
			const { at } = next[i];
			if (at.top + at.height > lines.length || (i + 1 < next.length && at.top + at.height > next[i + 1].at.top)) return undefined;
		}
		// Bottom-up, so that the row numbers of the parts above stay valid while the ones below move.
		for (let i = next.length - 1; i >= 0; i--) {
			const { at, index, rows: partRows } = next[i];
			const built = this.buildRows(index, at, width, partRows, builder);
			if (built.length === at.height) for (let j = 0; j < built.length; j++) lines[at.top + j] = built[j];
			else lines.splice(at.top, at.height, ...built);
		}
		let shift = 0;
		for (const { at, rows: partRows } of next) {
			at.top += shift;
			shift += partRows.length - at.height;
			at.height = partRows.length;
		}
		const output = lines.join("\n");
		this.lastFrame = { output, lines };
		// An empty <Static> node gives "\n" (a frame without new history).
		return { output, outputHeight: lines.length, staticOutput: staticOutput ?? (staticNode?.yogaNode ? "\n" : "") };
	}
}

interface Checked {
	width: number;
	rows: readonly string[];
}
interface Built {
	width: number;
	left: number;
	rows: readonly string[];
	out: string[];
}
type RowBuilder = NonNullable<ReturnType<typeof rowBuilder>>;

/** Whether the parts are in order of their top row. */
function byTop(parts: readonly { at: Placed }[]): boolean {
	for (let i = 1; i < parts.length; i++) if (parts[i - 1].at.top > parts[i].at.top) return false;
	return true;
}
const NO_ROWS: readonly string[] = [];

const SGR = /\x1b\[[0-9;:]*m/g;
const CONTROL = /[\x00-\x1f\x7f-\x9f]/;
/** Text and SGR codes only: Ink's squashTextNodes (sanitize-ansi.js) would leave the row as it is. */
const drawable = (row: string): boolean => !CONTROL.test(row.includes("\x1b") ? row.replace(SGR, "") : row);

/** Ink draws `row` as it is, in `width` cells: one regex for plain rows (ours, nearly all), Ink's measure otherwise. */
function fits(row: string, width: number, builder: RowBuilder): boolean {
	const plain = plainWidth(row);
	return plain !== undefined ? plain <= width : drawable(row) && builder.widestLine(row) <= width;
}

const isTextNode = (node: InkNode): node is InkTextNode => node.nodeName === "#text";
const isElement = (node: InkNode): node is InkElement => node.nodeName !== "#text";

/**
 * The part's place in Ink's last layout: undefined when it renders nothing, null when it is not the
 * plain shape this writer can redraw (one untransformed <Text> of unwrapped rows, the box's only child).
 */
function place(box: InkElement | null): Placed | undefined | null {
	if (!box) return undefined;
	const text = box.childNodes.length === 1 ? box.childNodes[0] : undefined;
	if (text?.nodeName !== "ink-text" || !isElement(text) || !text.yogaNode || !box.yogaNode) return null;
	const value = text.childNodes.length === 1 ? text.childNodes[0] : undefined;
	if (!value || !isTextNode(value)) return null;
	const height = text.yogaNode.getComputedHeight();
	// Ink wrapped a row (it was wider than the box): the lines on screen are not the rows.
	if (value.nodeValue.split("\n").length !== height) return null;
	let top = 0;
	let left = 0;
	for (let node: InkElement | undefined = text; node?.yogaNode; node = node.parentNode) {
		top += node.yogaNode.getComputedTop();
		left += node.yogaNode.getComputedLeft();
	}
	return { top, left, height, width: box.yogaNode.getComputedWidth(), text, value };
}
