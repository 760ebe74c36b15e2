#!/usr/bin/env perl
# rotate.pl - size-based rotation for project-local logs
use strict;
use warnings;
use File::Basename qw(basename);
use File::Spec;
use Getopt::Long;

my ($config, $dry) = ('.logrotate.conf', 0);
GetOptions('config=s' => \$config, 'dry-run' => \$dry) or die "usage: $0 [--config F] [--dry-run]\n";

my %c = (dir => 'logs', pattern => '*.log', max_size => '10M', keep => 7, compress => 'gzip');
open my $fh, '<', $config or die "cannot read $config: $!\n";
while (my $line = <$fh>) {
    next if $line =~ /^\s*(#|$)/;
    my ($k, $v) = $line =~ /^\s*(\w+)\s*=\s*(.*?)\s*$/ or next;
    $c{$k} = $v;
}
close $fh;

sub bytes {
    my $s = shift;
    my %m = (K => 1024, M => 1024**2, G => 1024**3);
    return $s =~ /^(\d+)([KMG])?$/i ? $1 * ($2 ? $m{uc $2} : 1) : 10 * 1024**2;
}

sub decode_hook {
    my $h = shift // return;
    return $h =~ s/^hex://r =~ s/([0-9a-f]{2})/chr hex $1/gier if $h =~ /^hex:/;
    return $h;
}

my $limit = bytes($c{max_size});
my @logs = glob(File::Spec->catfile($c{dir}, $c{pattern}));
my ($rotated, $freed) = (0, 0);

for my $log (@logs) {
    my $size = -s $log or next;
    next if $size < $limit;
    for (my $i = $c{keep} - 1; $i >= 1; $i--) {
        for my $ext ('', '.gz') {
            my $from = "$log.$i$ext";
            my $to   = "$log." . ($i + 1) . $ext;
            next unless -e $from;
            if ($i + 1 > $c{keep}) { $dry ? print "rm $from\n" : unlink $from; next }
            $dry ? print "mv $from $to\n" : rename $from, $to;
        }
    }
    if ($dry) { print "mv $log $log.1 && $c{compress} $log.1\n"; next }
    rename $log, "$log.1" or next;
    open my $touch, '>', $log; close $touch;
    system($c{compress}, '-f', "$log.1") if $c{compress} ne 'none';
    $rotated++;
    $freed += $size;
}

if ($rotated && !$dry) {
    my $hook = decode_hook($c{postrotate});
    system('/bin/sh', '-c', $hook) if defined $hook && length $hook;
}

printf "%d file(s) rotated, %.1f MB moved out of live logs%s\n", $rotated, $freed / 1024**2, $dry ? ' (dry run)' : '';
