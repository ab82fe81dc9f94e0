# PmuBoot::Report::Common: what several report formats say of a run in the same words: its counts, its machine,
# checks grouped by reason, CPU lists, per-thread measurement series.
package PmuBoot::Report::Common;
use strict;
use utf8;
use warnings;
use Exporter 'import';
use PmuBoot::Log qw(cpu_ranges numeric);
our @EXPORT_OK = qw(counts_text machine_lines grouped cpu_list md_escape min series);

sub counts_text {
    my ($run) = @_;
    my $c = $run->{counts};
    return "$c->{passed} passed, $c->{failed} failed, $c->{skipped} skipped" .
           ($c->{todo} ? ", $c->{todo} expected failures (TODO)" : '') .
           ($c->{todo_passed} ? ", $c->{todo_passed} TODO passed" : '');
}

sub machine_lines {
    my ($run) = @_;
    my $h = $run->{header};
    my @l;
    push @l, ['CPU', join(' ', grep { defined } $h->{vendor}, $h->{microarchitecture} ? "($h->{microarchitecture})" : undef,
                          $h->{signature} ? "signature $h->{signature} (family $h->{family} model $h->{model} stepping $h->{stepping})" : undef)]
        if $h->{vendor};
    push @l, ['Brand', $h->{brand}] if $h->{brand};
    push @l, ['Hypervisor', $h->{hypervisor}] if $h->{hypervisor};
    push @l, ['PMU', join(', ', grep { defined } $h->{pmu_kind} ? "kind $h->{pmu_kind}" : undef,
                          defined $h->{pmu_gp_counters} ? "$h->{pmu_gp_counters} general-purpose counters ($h->{pmu_gp_width}-bit)" : undef,
                          defined $h->{pmu_fixed_counters} ? "$h->{pmu_fixed_counters} fixed" : undef)]
        if $h->{pmu_kind};
    push @l, ['PMU emulated', "pmu=emulated:$h->{pmu_emulated} (a software reference PMU, not hardware)"] if $h->{pmu_emulated};
    push @l, ['PMU per kind of core', $h->{pmu_cores_text}] if $h->{pmu_cores_text};
    push @l, ['APIC', $h->{apic_mode} . (defined $h->{tsc_khz} ? "; TSC $h->{tsc_khz} kHz" . ($h->{tsc_source} ? " ($h->{tsc_source})" : '') : '')]
        if $h->{apic_mode};
    push @l, ['Threads', (defined $h->{cpus_online} ? "$h->{cpus_online} of $h->{cpus_found} online" : scalar(@{ $run->{threads} }) . ' reported')
               . ($h->{cpu_source} ? " ($h->{cpu_source})" : '') . ($h->{bringup_mode} ? ", $h->{bringup_mode} bring-up $h->{bringup_us} us" : '')];
    my %pk;
    $pk{ $_->{package} }{ $_->{core} } = 1 for @{ $run->{topology} };
    push @l, ['Topology', scalar(keys %pk) . ' package(s), ' . (0 + map { keys %$_ } values %pk) . ' core(s), '
               . scalar(@{ $run->{topology} }) . ' thread(s)' . ($h->{topology_source} ? " ($h->{topology_source})" : '')]
        if @{ $run->{topology} };
    push @l, ['Boot', join(' ', grep { defined } $h->{loader}, $h->{protocol} ? "via $h->{protocol}" : undef)] if $h->{loader};
    push @l, ['Options', join(' ', map { "$_=$h->{options}{$_}" } sort keys %{ $h->{options} })] if %{ $h->{options} };
    push @l, ['Image', "pmuboot $h->{version}"] if $h->{version};
    return @l;
}

# Identical TODO/SKIP reasons on many CPUs are one line, with the CPUs listed.
sub grouped {
    my ($run, $verdict) = @_;
    my (%g, @order);
    for my $c (grep { $_->{verdict} eq $verdict } @{ $run->{checks} }) {
        my $k = "$c->{id}\0" . ($c->{reason} // '');
        push @order, $k unless $g{$k};
        push @{ $g{$k} }, $c;
    }
    return map { $g{$_} } @order;
}

# "cpu0-3,5" for the CPUs of CHECKS ('' when none has one: run-once checks).
sub cpu_list {
    my @cpus = sort { $a <=> $b } grep { defined } map { $_->{cpu} } @_;
    return @cpus ? cpu_ranges(\@cpus) : '';
}

sub md_escape { my $s = shift // ''; $s =~ s/([|\\`*_\[\]<>])/\\$1/g; $s =~ s/\n/ /g; return $s }

sub min { $_[0] < $_[1] ? $_[0] : $_[1] }

# --- measurements: per-thread numeric series for plots and comparison ---------------------------------------

sub series {
    my ($run) = @_;
    my (%s, @order);
    my $add = sub {
        my ($key, $title, $unit, $cpu, $v, $exp, $tol) = @_;
        push @order, $key unless $s{$key};
        $s{$key} //= { key => $key, title => $title, unit => $unit, points => [] };
        push @{ $s{$key}{points} }, { cpu => $cpu, value => $v, expected => $exp, tolerance => $tol };
    };
    for my $c (@{ $run->{checks} }) {
        next unless defined $c->{cpu};
        for my $e (@{ $c->{expectations} }) {
            next unless defined $e->{unit};
            my $v = numeric($e->{observed});
            next unless defined $v;
            $add->("$c->{id}: $e->{label}", "$c->{id}: $e->{label}", $e->{unit}, $c->{cpu}, $v,
                   numeric($e->{expected}), numeric($e->{tolerance}));
        }
        for my $ev (@{ $c->{evidence} }) {
            if ($ev->{value} =~ /^(\d+) (Hz|kHz|MHz|us|ns|ms)\b/) {
                $add->("$c->{id}: $ev->{key}", "$c->{id}: $ev->{key}", $2, $c->{cpu}, $1 + 0, undef, undef);
            }
        }
    }
    return map { $s{$_} } @order;
}

1;
