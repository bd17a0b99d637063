// The addresses web_fetch refuses unless an allow rule names the host: a page on the internet must not
// steer a fetch into the user's own machine, network or cloud metadata service. Checked on the
// resolved addresses (a name can resolve anywhere), as data: one row per range.
import { BlockList, isIP } from "node:net";

/** Range, and what it is, for the refusal message. */
export const REFUSED_RANGES: readonly (readonly [string, string])[] = [
	["0.0.0.0/8", "this-network (0.0.0.0)"],
	["10.0.0.0/8", "private"],
	["100.64.0.0/10", "carrier-grade NAT (Alibaba metadata 100.100.100.200)"],
	["127.0.0.0/8", "loopback"],
	["169.254.0.0/16", "link-local (cloud metadata 169.254.169.254)"],
	["172.16.0.0/12", "private"],
	["192.0.0.0/24", "IETF protocol assignments (Oracle metadata 192.0.0.192)"],
	["192.168.0.0/16", "private"],
	["198.18.0.0/15", "benchmarking"],
	["224.0.0.0/4", "multicast"],
	["240.0.0.0/4", "reserved / broadcast"],
	["::/128", "unspecified (::)"],
	["::1/128", "loopback"],
	["fc00::/7", "unique-local (private; AWS metadata fd00:ec2::254)"],
	["fe80::/10", "link-local"],
	["ff00::/8", "multicast"],
];

type RangeList = { list: BlockList; type: "ipv4" | "ipv6"; label: string; cidr: string };
let built: RangeList[] | undefined;

/**
 * The ranges as block lists, built on the first check: isIP's first call compiles Node's IPv6
 * expression, 3–4 ms of CPU that every launch paid when this ran at load.
 */
function lists(): RangeList[] {
	built ??= REFUSED_RANGES.map(([cidr, label]) => {
		const [net, bits] = cidr.split("/");
		const type = isIP(net) === 6 ? "ipv6" : "ipv4";
		const list = new BlockList();
		list.addSubnet(net, Number(bits), type);
		return { list, type, label, cidr };
	});
	return built;
}

/** The IPv4 address an IPv6 one carries (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`), if any. */
function embeddedIPv4(address: string): string | undefined {
	const lower = address.toLowerCase();
	const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
	if (dotted) return dotted[1];
	const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
	if (!hex) return undefined;
	const high = Number.parseInt(hex[1], 16);
	const low = Number.parseInt(hex[2], 16);
	return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** Why `address` (an IP literal) is refused, e.g. "loopback (127.0.0.0/8)"; undefined: a public address. */
export function refusedAddress(address: string): string | undefined {
	const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
	const family = isIP(bare);
	if (family === 0) return "not an IP address";
	const v4 = family === 6 ? embeddedIPv4(bare) : bare;
	const [ip, type] = v4 !== undefined ? [v4, "ipv4" as const] : [bare, "ipv6" as const];
	const hit = lists().find((l) => l.type === type && l.list.check(ip, type));
	return hit ? `${hit.label} (${hit.cidr})` : undefined;
}
