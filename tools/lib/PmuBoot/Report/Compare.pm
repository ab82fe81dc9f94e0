# PmuBoot::Report::Compare: what changed between two runs (--compare): machine, threads, verdicts, checks that
# appeared or vanished, observed values that moved beyond tolerance.
package PmuBoot::Report::Compare;
use strict;
use utf8;
use warnings;
use Exporter 'import';
use PmuBoot::Log qw(numeric);
use PmuBoot::Report::Common qw(counts_text cpu_list md_escape);
our @EXPORT_OK = qw(compare_runs);

sub compare_runs {
    my ($old, $new) = @_;
    my %o = map { ($_->{name} => $_) } @{ $old->{checks} };
    my %n = map { ($_->{name} => $_) } @{ $new->{checks} };
    my $t = "# pmuboot compare: " . md_escape($old->{name}) . " -> " . md_escape($new->{name}) . "\n\n";
    $t .= "- old: " . uc($old->{verdict}) . " (" . counts_text($old) . ")\n- new: " . uc($new->{verdict}) . " (" . counts_text($new) . ")\n";
    my $changes = 0;
    my @hdr;
    for my $k (qw(vendor signature microarchitecture brand pmu_kind pmu_gp_counters pmu_fixed_counters pmu_emulated
                  pmu_cores_text apic_mode cpus_online version)) {
        my ($a, $b) = map { $_->{header}{$k} // '(none)' } $old, $new;
        push @hdr, "- $k: `$a` -> `$b`" if $a ne $b;
    }
    $t .= "\n## Machine and image\n\n" . (@hdr ? join("\n", @hdr) . "\n" : "No change.\n");
    $changes += @hdr;
    # Threads.
    my %ot = map { $_ => 1 } @{ $old->{threads} };
    my %nt = map { $_ => 1 } @{ $new->{threads} };
    my @app = grep { !$ot{$_} } @{ $new->{threads} };
    my @van = grep { !$nt{$_} } @{ $old->{threads} };
    $t .= "\n## Threads\n\n";
    $t .= "- appeared: " . cpu_list(map { { cpu => $_ } } @app) . "\n" if @app;
    $t .= "- vanished: " . cpu_list(map { { cpu => $_ } } @van) . "\n" if @van;
    $t .= "No change (" . scalar(@{ $new->{threads} }) . " threads).\n" unless @app || @van;
    $changes += @app + @van;
    # Verdicts.
    my @vc;
    for my $c (@{ $new->{checks} }) {
        my $p = $o{ $c->{name} } or next;
        push @vc, "- `$c->{name}`: $p->{verdict} -> $c->{verdict}" . ($c->{reason} && $c->{verdict} ne 'pass' ? " (" . md_escape($c->{reason}) . ")" : '')
            if $p->{verdict} ne $c->{verdict};
    }
    my @newc = grep { !$o{ $_->{name} } && !(defined $_->{cpu} && !$ot{ $_->{cpu} }) } @{ $new->{checks} };
    my @gone = grep { !$n{ $_->{name} } && !(defined $_->{cpu} && !$nt{ $_->{cpu} }) } @{ $old->{checks} };
    $t .= "\n## Verdicts that changed (" . scalar(@vc) . ")\n\n" . (@vc ? join("\n", @vc) . "\n" : "None.\n");
    $t .= "\n## Checks only in the new run (" . scalar(@newc) . ")\n\n" . join('', map { "- `$_->{name}`: $_->{verdict}\n" } @newc) if @newc;
    $t .= "\n## Checks only in the old run (" . scalar(@gone) . ")\n\n" . join('', map { "- `$_->{name}`: $_->{verdict}\n" } @gone) if @gone;
    $changes += @vc + @newc + @gone;
    # Expectations.
    my @mv;
    for my $c (@{ $new->{checks} }) {
        my $p = $o{ $c->{name} } or next;
        my %pe = map { ($_->{label} => $_) } @{ $p->{expectations} };
        for my $e (@{ $c->{expectations} }) {
            my $q = $pe{ $e->{label} } or next;
            my ($a, $b) = map { numeric($_->{observed}) } $q, $e;
            my $tol = numeric($e->{tolerance}) // numeric($q->{tolerance}) // 0;
            if (defined $a && defined $b) {
                # Where the expected value is itself measured (a timer's ticks from its calibrated frequency),
                # compare each run's deviation from its own expectation.
                my ($xa, $xb) = (numeric($q->{expected}), numeric($e->{expected}));
                my $rel = defined $xa && defined $xb && $xa != $xb;
                my $moved = $rel ? ($b - $xb) - ($a - $xa) : $b - $a;
                next if abs($moved) <= $tol;
                push @mv, "- `$c->{name}` \"" . md_escape($e->{label}) . "\": observed $q->{observed}"
                        . ($rel ? " (expected $q->{expected})" : '') . " -> $e->{observed}" . ($rel ? " (expected $e->{expected})" : '')
                        . " (moved $moved" . ($e->{unit} ? " $e->{unit}" : '') . ($rel ? ' against the expected value' : '') . ", tolerance $tol)";
            } elsif (((($q->{observed} // '') eq ($q->{expected} // '')) xor (($e->{observed} // '') eq ($e->{expected} // '')))) {
                # Described values ("999877841 Hz", "ffff7d84 fffec5d0 ...") vary from run to run: report them
                # only when they start or stop matching what is expected.
                push @mv, "- `$c->{name}` \"" . md_escape($e->{label}) . "\": observed \"" . md_escape($q->{observed}) . "\" -> \"" . md_escape($e->{observed}) . "\"";
            }
        }
    }
    $t .= "\n## Observed values that moved beyond tolerance (" . scalar(@mv) . ")\n\n" . (@mv ? join("\n", @mv) . "\n" : "None.\n");
    $changes += @mv;
    for ([$old, 'old'], [$new, 'new']) {
        $t .= "\nNote: the $_->[1] run is incomplete: " . md_escape(join('; ', @{ $_->[0]{stream}{problems} })) . "\n" unless $_->[0]{complete};
    }
    return ($t, $changes);
}

1;
