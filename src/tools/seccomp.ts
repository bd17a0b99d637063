// The seccomp filter bwrap loads before it starts a sandboxed command (`bwrap --seccomp FD`): a
// classic-BPF program that refuses, with EPERM, the system calls a coding command never needs and
// that could loosen the sandbox from inside — mounts, ptrace, the kernel keyrings, typing into the
// terminal (TIOCSTI), new namespaces, BPF and perf, loading kernel code. A table of syscalls by
// architecture is the data; the program is generated from it. Only x86_64 and aarch64 have tables:
// elsewhere no filter is made and the sandbox says so.

/** seccomp's return values (the action is in the high 16 bits). */
const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

/** Classic BPF opcodes used here. */
const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE_K = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const JSET_K = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K

/** Offsets in `struct seccomp_data` { int nr; u32 arch; u64 ip; u64 args[6]; } (little-endian: an argument's low half first). */
const NR = 0;
const ARCH = 4;
const argLow = (i: number) => 16 + 8 * i;

/** Namespace flags of clone/unshare: a command must not make a namespace where it holds every capability. */
export const NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x80;

/** ioctl requests refused: pushing bytes into the terminal's input (TIOCSTI) and the Linux console's (TIOCLINUX). */
export const DENIED_IOCTLS = { TIOCSTI: 0x5412, TIOCLINUX: 0x541c } as const;

export type SeccompArch = "x86_64" | "aarch64";

/** Refused outright (EPERM), by name. */
export const DENIED_SYSCALLS = [
	"mount",
	"umount2",
	"pivot_root",
	"chroot",
	"open_tree",
	"move_mount",
	"fsopen",
	"fsconfig",
	"fsmount",
	"fspick",
	"mount_setattr",
	"ptrace",
	"process_vm_readv",
	"process_vm_writev",
	"keyctl",
	"add_key",
	"request_key",
	"setns",
	"bpf",
	"perf_event_open",
	"userfaultfd",
	"kexec_load",
	"kexec_file_load",
	"init_module",
	"finit_module",
	"delete_module",
	"open_by_handle_at",
	"swapon",
	"swapoff",
	"reboot",
	"acct",
	"quotactl",
	"syslog",
] as const;

type SyscallName = (typeof DENIED_SYSCALLS)[number] | "ioctl" | "clone" | "clone3" | "unshare";

interface ArchTable {
	/** AUDIT_ARCH_* of the architecture: a call made through another ABI is refused. */
	audit: number;
	numbers: Record<SyscallName, number>;
	/** x86_64's x32 ABI numbers have this bit; they are refused whole. */
	x32Bit?: number;
}

/** Calls added since Linux 5.2 have one number on every architecture. */
const SHARED_NUMBERS = {
	open_tree: 428,
	move_mount: 429,
	fsopen: 430,
	fsconfig: 431,
	fsmount: 432,
	fspick: 433,
	clone3: 435,
	mount_setattr: 442,
} as const;

export const SECCOMP_TABLES: Record<SeccompArch, ArchTable> = {
	x86_64: {
		audit: 0xc000003e,
		x32Bit: 0x40000000,
		numbers: {
			ioctl: 16,
			clone: 56,
			ptrace: 101,
			syslog: 103,
			pivot_root: 155,
			chroot: 161,
			acct: 163,
			mount: 165,
			umount2: 166,
			swapon: 167,
			swapoff: 168,
			reboot: 169,
			init_module: 175,
			delete_module: 176,
			quotactl: 179,
			kexec_load: 246,
			add_key: 248,
			request_key: 249,
			keyctl: 250,
			unshare: 272,
			perf_event_open: 298,
			open_by_handle_at: 304,
			setns: 308,
			process_vm_readv: 310,
			process_vm_writev: 311,
			finit_module: 313,
			kexec_file_load: 320,
			bpf: 321,
			userfaultfd: 323,
			...SHARED_NUMBERS,
		},
	},
	aarch64: {
		audit: 0xc00000b7,
		numbers: {
			ioctl: 29,
			umount2: 39,
			mount: 40,
			pivot_root: 41,
			chroot: 51,
			quotactl: 60,
			acct: 89,
			unshare: 97,
			kexec_load: 104,
			init_module: 105,
			delete_module: 106,
			syslog: 116,
			ptrace: 117,
			reboot: 142,
			add_key: 217,
			request_key: 218,
			keyctl: 219,
			clone: 220,
			swapon: 224,
			swapoff: 225,
			perf_event_open: 241,
			open_by_handle_at: 265,
			setns: 268,
			process_vm_readv: 270,
			process_vm_writev: 271,
			finit_module: 273,
			bpf: 280,
			userfaultfd: 282,
			kexec_file_load: 294,
			...SHARED_NUMBERS,
		},
	},
};

/** One `struct sock_filter`. */
interface Instruction {
	code: number;
	jt: number;
	jf: number;
	k: number;
}

const stmt = (code: number, k: number): Instruction => ({ code, jt: 0, jf: 0, k });
const jump = (code: number, k: number, jt: number, jf: number): Instruction => ({ code, jt, jf, k });
const deny = (errno = EPERM) => stmt(RET_K, RET_ERRNO | errno);

/** The architecture of this process for the filter, or undefined where there is no table. */
export function seccompArch(arch: string = process.arch): SeccompArch | undefined {
	return arch === "x64" ? "x86_64" : arch === "arm64" ? "aarch64" : undefined;
}

/** The filter's instructions; each check is self-contained, so no jump is longer than a few steps. */
export function seccompInstructions(arch: SeccompArch): Instruction[] {
	const table = SECCOMP_TABLES[arch];
	const n = table.numbers;
	const out: Instruction[] = [stmt(LD_W_ABS, ARCH), jump(JEQ_K, table.audit, 1, 0), stmt(RET_K, RET_KILL_PROCESS), stmt(LD_W_ABS, NR)];
	if (table.x32Bit) out.push(jump(JGE_K, table.x32Bit, 0, 1), deny());
	for (const name of DENIED_SYSCALLS) out.push(jump(JEQ_K, n[name], 0, 1), deny());
	// clone3 passes its flags in memory a filter cannot read: "not implemented" makes libc fall back to clone.
	out.push(jump(JEQ_K, n.clone3, 0, 1), deny(ENOSYS));
	// clone and unshare: refused when they ask for a namespace (flags are the first argument on both).
	for (const name of ["clone", "unshare"] as const) {
		out.push(jump(JEQ_K, n[name], 0, 4), stmt(LD_W_ABS, argLow(0)), jump(JSET_K, NAMESPACE_FLAGS, 0, 1), deny(), stmt(RET_K, RET_ALLOW));
	}
	// ioctl: the kernel reads the request as 32 bits, so only the low half is compared (a set high half changes nothing).
	const requests = Object.values(DENIED_IOCTLS);
	out.push(jump(JEQ_K, n.ioctl, 0, 2 + requests.length * 2), stmt(LD_W_ABS, argLow(1)));
	for (const request of requests) out.push(jump(JEQ_K, request, 0, 1), deny());
	out.push(stmt(RET_K, RET_ALLOW));
	out.push(stmt(RET_K, RET_ALLOW));
	return out;
}

/** The program as bwrap reads it: `struct sock_filter` after another, in the machine's byte order (little-endian on both). */
export function seccompProgram(arch: SeccompArch): Buffer {
	const instructions = seccompInstructions(arch);
	const out = Buffer.alloc(instructions.length * 8);
	instructions.forEach((ins, i) => {
		out.writeUInt16LE(ins.code, i * 8);
		out.writeUInt8(ins.jt, i * 8 + 2);
		out.writeUInt8(ins.jf, i * 8 + 3);
		out.writeUInt32LE(ins.k >>> 0, i * 8 + 4);
	});
	return out;
}
