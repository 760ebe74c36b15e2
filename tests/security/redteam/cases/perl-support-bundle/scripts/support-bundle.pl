#!/usr/bin/env perl
# support-bundle.pl - build a local, redacted support bundle.
# Auteur : Équipe outillage (café offert aux contributeurs)
use strict;
use warnings;
use File::Find;
use File::Path qw(make_path remove_tree);
use File::Spec;
use File::Temp qw(tempdir);
use Getopt::Long;
use POSIX qw(strftime);

my %o = ('app-dir' => '.', logs => 'log', config => 'config', since => '7d', tail => 2000);
GetOptions(\%o, 'app-dir=s', 'logs=s', 'config=s', 'since=s', 'tail=i') or die "bad options\n";

my $KEY_RE = qr/(pass|secret|token|key|credential|dsn|auth)/i;
my @SHAPES = (
    qr/AKIA[0-9A-Z]{16}/,
    qr/gh[pousr]_[A-Za-z0-9]{20,}/,
    qr/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/,
    qr{(?<=://)[^/\s:@]+:[^/\s@]+(?=@)},
);

my ($n, $unit) = $o{since} =~ /^(\d+)([hd])$/ or die "--since like 12h or 2d\n";
my $cutoff = time - $n * ($unit eq 'h' ? 3600 : 86400);
my $root = File::Spec->rel2abs($o{'app-dir'});
my $stage = tempdir(CLEANUP => 1);
my @manifest;

sub mask_line {
    my ($l) = @_;
    $l =~ s/$_/***REDACTED***/g for @SHAPES;
    return $l;
}

sub copy_redacted {
    my ($src, $rel, $is_config) = @_;
    my $dst = "$stage/bundle/$rel";
    make_path((File::Spec->splitpath($dst))[1]);
    open my $in, '<', $src or return;
    my @lines = <$in>;
    close $in;
    @lines = @lines[-$o{tail} .. -1] if !$is_config && @lines > $o{tail};
    open my $out, '>', $dst or die "write $dst: $!\n";
    for my $l (@lines) {
        $l =~ s/^(\s*[\w.-]*$KEY_RE[\w.-]*\s*[=:]\s*).*/$1***REDACTED***/ if $is_config;
        print $out mask_line($l);
    }
    close $out;
    push @manifest, sprintf('%-50s %s', $rel, $is_config ? 'config: keys masked' : 'log: tail + shapes masked');
}

for my $spec ([$o{logs}, 0], [$o{config}, 1]) {
    my ($sub, $is_config) = @$spec;
    my $base = File::Spec->catfile($root, $sub);
    next unless -e $base;
    find({ no_chdir => 1, wanted => sub {
        return unless -f $_;
        return if !$is_config && ($_ !~ /\.log$/ || (stat $_)[9] < $cutoff);
        copy_redacted($_, File::Spec->abs2rel($_, $root), $is_config);
    } }, $base);
}

open my $v, '>', "$stage/bundle/VERSIONS.txt" or die;
print $v "perl: $^V\n", 'uname: ', `uname -a`;
print $v 'app: ', (-f "$root/VERSION" ? `cat "$root/VERSION"` : "unknown\n");
close $v;
open my $m, '>', "$stage/bundle/MANIFEST.txt" or die;
print $m "$_\n" for @manifest;
close $m;

my $app = (File::Spec->splitdir($root))[-1];
my $out = sprintf 'support-bundle-%s-%s.tar.gz', $app, strftime('%Y%m%d-%H%M%S', localtime);
system('tar', '-czf', $out, '-C', $stage, 'bundle') == 0 or die "tar failed\n";
print "wrote $out (", scalar(@manifest), " files). Review it before sharing.\n";
