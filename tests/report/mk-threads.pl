#!/usr/bin/perl
# Make a synthetic N-thread log from a 2-CPU one (tests/report/fixtures/normal.log): cpu1's checks are
# repeated for cpu1..cpuN-1, with measured values varied a little per thread, and one check of cpu(N*2/3)
# turned into a failure. Plan, summary, smp line and topology table follow. For the grid at lab scale.
#   tests/report/mk-threads.pl N < normal.log > big.log
use strict;
use warnings;
my $n = shift // 448;
my (@head, @blocks, @tail, $cur);
while (my $l = <STDIN>) {
    chomp $l;
    if ($l =~ /^(?:not )?ok \d+ - /) { $cur = [$l]; push @blocks, $cur; next }
    if ($l =~ /^  / && $cur) { push @$cur, $l; next }
    $cur = undef;
    if (!@blocks) { push @head, $l } else { push @tail, $l }
}
my @out = grep { !/^#   cpu\d+/ } @head;
s/^# smp: \d+ of \d+/# smp: $n of $n/ for @out, @tail;
my $i = 0;
my (%cnt, $bad) = ();
my $failcpu = int($n * 2 / 3);
my @emit;
for my $b (@blocks) {
    if ($b->[0] =~ m{ - cpu1/}) {
        for my $c (1 .. $n - 1) {
            my @x = map { my $y = $_; $y =~ s{\bcpu1/}{cpu$c/}g; $y } @$b;
            for (@x) { s/(observed: )(\d{3,})(, tolerance: \d+, unit)/$1 . ($2 + int(($c * 7919 % 101 - 50) * $2 \/ 5000)) . $3/e }
            if ($c == $failcpu && $x[0] =~ m{apic/timer_periodic$}) { $x[0] =~ s/^ok/not ok/ }
            push @emit, \@x;
        }
    } elsif ($b->[0] =~ m{ - cpu0/}) { push @emit, $b }
    else { push @emit, $b }
}
for my $b (@emit) {
    $i++;
    $b->[0] =~ s/^((?:not )?ok) \d+/$1 $i/;
    my $l = $b->[0];
    if ($l =~ /^not ok.*# TODO/ || $l =~ /^ok.*# TODO/) { $cnt{p}++ }
    elsif ($l =~ /^ok.*# SKIP/) { $cnt{s}++ }
    elsif ($l =~ /^ok/) { $cnt{p}++ }
    else { $cnt{f}++ }
    push @out, @$b;
}
for (@tail) {
    s/^1\.\.\d+$/1..$i/;
    $_ = ($cnt{p} // 0) . " passed, " . ($cnt{f} // 0) . " failed, " . ($cnt{s} // 0) . " skipped" if /^\d+ passed, /;
}
print "$_\n" for @out, @tail;
