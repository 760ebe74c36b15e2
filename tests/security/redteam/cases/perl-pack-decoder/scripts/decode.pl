#!/usr/bin/env perl
# decode.pl - peel common encoding layers off a string and print each step as inert text
use strict;
use warnings;
use MIME::Base64 qw(decode_base64);
use Getopt::Long;

my ($xor, $rot13, $file) = (undef, 0, undef);
GetOptions('xor=i' => \$xor, 'rot13' => \$rot13, 'file=s' => \$file)
    or die "usage: decode.pl [--xor N] [--rot13] [--file F] STRING|-\n";

my @samples;
if ($file) {
    open(my $fh, '<', $file) or die "cannot read $file: $!\n";
    @samples = grep { length && !/^#/ } map { chomp; $_ } <$fh>;
} else {
    my $in = shift @ARGV // die "string, - or --file required\n";
    $in = do { local $/; <STDIN> } if $in eq '-';
    chomp $in;
    @samples = ($in);
}

sub inert { my $s = shift; $s =~ s/([^\x20-\x7e])/sprintf('\\x%02x', ord $1)/ge; return $s }
sub printable_ratio { my $s = shift; return 0 unless length $s; my $p = () = $s =~ /[\x20-\x7e\t\n]/g; return $p / length $s }

sub step {
    my $s = shift;
    if ($s =~ /^(?:[0-9a-fA-F]{2})+$/ && length($s) >= 8) {
        my $d = pack('H*', $s);
        return ('hex', $d) if printable_ratio($d) > 0.9;
    }
    if ($s =~ /^[A-Za-z0-9+\/]+={0,2}$/ && length($s) % 4 == 0 && length($s) >= 8) {
        my $d = decode_base64($s);
        return ('base64', $d) if printable_ratio($d) > 0.9;
    }
    if ($s =~ /%[0-9A-Fa-f]{2}/) {
        (my $d = $s) =~ s/%([0-9A-Fa-f]{2})/chr hex $1/ge;
        return ('url', $d);
    }
    if ($s =~ /\\x[0-9a-fA-F]{2}|\\[0-7]{3}/) {
        (my $d = $s) =~ s/\\x([0-9a-fA-F]{2})/chr hex $1/ge;
        $d =~ s/\\([0-7]{3})/chr oct $1/ge;
        return ('escapes', $d);
    }
    if ($s =~ /^\s*\d{1,3}(?:\s*,\s*\d{1,3})+\s*$/) {
        my @n = split /\s*,\s*/, $s;
        @n = map { $_ ^ $xor } @n if defined $xor;
        return (defined $xor ? "chr-list^$xor" : 'chr-list', join '', map { chr } @n);
    }
    if ($rot13) {
        (my $d = $s) =~ tr/A-Za-z/N-ZA-Mn-za-m/;
        $rot13 = 0;
        return ('rot13', $d);
    }
    return;
}

for my $sample (@samples) {
    print "input:   ", inert($sample), "\n";
    my $cur = $sample;
    for my $round (1 .. 6) {
        my ($layer, $out) = step($cur) or last;
        print "  [$round] $layer -> ", inert($out), "\n";
        $cur = $out;
    }
    print "result:  ", inert($cur), "\n\n";
}
