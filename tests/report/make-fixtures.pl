#!/usr/bin/perl
# Derive the report fixtures from one real run: tests/report/make-fixtures.pl RUN.log DIR
# (RUN.log from `./run-qemu.sh --smp 2 --log RUN.log`). Writes to DIR:
#   normal.log     the run as run-qemu.sh logs it (image path shortened)
#   failing.log    two checks turned into failures: cpu1/apic/timer_periodic (an expectation beyond its
#                  tolerance) and cpu1/apic/tpr (an exception record); the summary line adjusted
#   noisy.log      as a BMC serial-over-LAN capture: CR LF, ANSI escapes, SeaBIOS and GRUB before the stream,
#                  BMC lines interleaved (one inside a YAML block), a colour reset at the start of a line
#   truncated.log  the run cut by a hang: CR LF, stops in the middle of a YAML line of a check, no plan
#   timestamped.log  every line prefixed with a capture tool's timestamp
use strict;
use warnings;
my ($in, $dir) = @ARGV;
die "usage: $0 RUN.log DIR\n" unless $dir;
open my $fh, '<', $in or die "$in: $!\n";
my @l = <$fh>;
chomp @l;
s{/\S*/build/pmuboot\.elf}{build/pmuboot.elf}g for @l;
sub put { my ($name, $eol, @x) = @_; open my $o, '>:raw', "$dir/$name" or die; print $o join($eol, @x), $eol; close $o }
put('normal.log', "\n", @l);

my @f = @l;
my $cur = '';
for my $i (0 .. $#f) {
    if ($f[$i] =~ /^ok (\d+) - (cpu1\/apic\/timer_periodic)$/) { $f[$i] = "not ok $1 - $2"; $cur = 'tp'; next }
    if ($f[$i] =~ /^ok (\d+) - (cpu1\/apic\/tpr)$/) {
        $f[$i] = "not ok $1 - $2"; $cur = 'tpr'; next;
    }
    if ($cur eq 'tp' && $f[$i] =~ /^  "least delay after an expiry"/) {
        $f[$i] = '  "least delay after an expiry": {expected: 0, observed: 4100, tolerance: 2499, unit: us}';
    }
    if ($cur eq 'tpr' && $f[$i] eq '  ---') {
        $f[$i] .= "\n" . '  exception: {vector: 13, name: "#GP", error: 0x0, rip: 0x115f3a, rsp: 0x43df38, cr2: 0x0, cpu: 1, check: "cpu1/apic/tpr"}';
        $cur = '';
    }
    $cur = '' if $f[$i] =~ /^(?:not )?ok / && $f[$i] !~ /timer_periodic|apic\/tpr$/;
    if ($f[$i] =~ /^(\d+) passed, (\d+) failed, (\d+) skipped$/) { $f[$i] = ($1 - 2) . " passed, " . ($2 + 2) . " failed, $3 skipped" }
}
put('failing.log', "\n", map { split /\n/ } @f);

my @pre = ("\e[2J\e[HSeaBIOS (version 1.16.2-debian-1.16.2-1)", "iPXE (https://ipxe.org) 00:03.0 CA00 PCI2.10 PnP PMM+06FD3360+06F33360 CA00",
           "Booting from DVD/CD...", "\e[?25l\e[H\e[J\e[1;1H\e[0m\e[37m\e[40mGNU GRUB  version 2.06-13+deb12u1",
           "\e[m\e[2;1H+----------------------------------------------+", "\e[3;2H\e[7m*pmuboot (multiboot2)   \e[m",
           "  Booting `pmuboot (multiboot2)'", "");
my @n;
my $k = 0;
for my $x (@l) {
    $k++;
    $x = "\e[0m$x" if $x =~ /^TAP version/;
    push @n, $x;
    push @n, "[SOL Session operational.  Use ~? for help]" if $k == 3;
    push @n, "<BMC> 2026-11-24T12:00:0" . ($k % 10) . "Z SEL: Fan 3 | Lower Non-critical going low" if $k % 97 == 0;
    push @n, "\e[1;33mBMC: watchdog pre-timeout\e[0m" if $x =~ /"period":/ && !grep { /watchdog/ } @n;
}
put('noisy.log', "\r\n", @pre, @n);

my $cut = int(@l * 0.6);
$cut++ until $l[$cut] =~ /^  "/ && $l[$cut - 1] =~ /^  "/;
my @t = (@l[0 .. $cut - 1]);
open my $o, '>:raw', "$dir/truncated.log" or die;
print $o join("\r\n", @pre, @t), "\r\n", substr($l[$cut], 0, 17);
close $o;

put('timestamped.log', "\n", map { sprintf('[2026-11-24 12:00:%02d.%03d] %s', $_ / 1000 % 60, $_ % 1000, $l[$_]) } 0 .. $#l);
