const std = @import("std");

const exe_name = "app";
const root_source_file = "src/main.zig";

const targets = [_]std.Target.Query{
    .{ .cpu_arch = .x86_64, .os_tag = .linux, .abi = .musl },
    .{ .cpu_arch = .aarch64, .os_tag = .linux, .abi = .musl },
    .{ .cpu_arch = .x86_64, .os_tag = .macos },
    .{ .cpu_arch = .aarch64, .os_tag = .macos },
    .{ .cpu_arch = .x86_64, .os_tag = .windows, .abi = .gnu },
    .{ .cpu_arch = .aarch64, .os_tag = .windows, .abi = .gnu },
};

// SDK header preparation script, embedded so the build is self-contained
const sdk_prep = @embedFile("tools/sdk-prep.sh");

pub fn build(b: *std.Build) !void {
    const optimize = b.standardOptimizeOption(.{});

    // native build for `zig build run`
    const native = b.addExecutable(.{
        .name = exe_name,
        .root_source_file = b.path(root_source_file),
        .target = b.standardTargetOptions(.{}),
        .optimize = optimize,
    });
    b.installArtifact(native);
    const run = b.addRunArtifact(native);
    b.step("run", "Run the app").dependOn(&run.step);

    // one-time SDK preparation
    const prep = b.addSystemCommand(&.{ "sh", "-c", sdk_prep });
    prep.has_side_effects = true;
    const prep_step = b.step("sdk-prep", "Fetch macOS SDK stub headers");
    prep_step.dependOn(&prep.step);
    b.getInstallStep().dependOn(&prep.step);

    // release matrix
    const release = b.step("release", "Build release binaries for all targets");
    release.dependOn(&prep.step);
    for (targets) |q| {
        const t = b.resolveTargetQuery(q);
        const exe = b.addExecutable(.{
            .name = exe_name,
            .root_source_file = b.path(root_source_file),
            .target = t,
            .optimize = optimize,
        });
        const triple = try q.zigTriple(b.allocator);
        const out = b.addInstallArtifact(exe, .{
            .dest_dir = .{ .override = .{ .custom = b.fmt("release/{s}", .{triple}) } },
        });
        release.dependOn(&out.step);
    }
}
