// Colours in one place. With NO_COLOR set (https://no-color.org) every colour is dropped; bold, dim
// and inverse stay, since they carry meaning without colour.

import type { PermissionMode } from "../../permissions/types.js";

export const colorsEnabled = (env: Record<string, string | undefined> = process.env): boolean => !env.NO_COLOR;

const enabled = colorsEnabled();

/** The colour to pass to Ink's `<Text color>`, or undefined under NO_COLOR. */
export const color = (name: string | undefined): string | undefined => (enabled ? name : undefined);

export const theme = {
	user: "cyan",
	accent: "blue",
	error: "red",
	warning: "yellow",
	success: "green",
	muted: "gray",
	heading: "magenta",
	link: "blue",
	code: "yellow",
} as const;

/** How the footer shows a permission mode: its colour, bold, and a mark that still warns under NO_COLOR. */
export interface ModeStyle {
	color: string;
	bold?: boolean;
	mark?: string;
}

/**
 * One style per mode, from the strictest (plan) to none at all (yolo). yolo is the one warning: nothing
 * asks, so it is red, bold and marked, where the others only tell each other apart.
 */
export const modeStyles: Readonly<Record<PermissionMode, ModeStyle>> = {
	plan: { color: "cyan" },
	ask: { color: "green" },
	"auto-edit": { color: "blue" },
	auto: { color: "magenta" },
	yolo: { color: "red", bold: true, mark: "⚠ " },
};
