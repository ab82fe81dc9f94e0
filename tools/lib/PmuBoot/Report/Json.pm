# PmuBoot::Report::Json: one record per check plus the run's header (--json); schema: docs/report-json.md.
package PmuBoot::Report::Json;
use strict;
use utf8;
use warnings;
use Exporter 'import';
use JSON::PP ();
our @EXPORT_OK = qw(json_report);

our $SCHEMA_VERSION = 1;

sub run_record {
    my ($run) = @_;
    my $h = $run->{header};
    my @checks = map {
        my $c = $_;
        +{ number => $c->{number}, name => $c->{name}, cpu => $c->{cpu}, suite => $c->{suite}, check => $c->{check},
           verdict => $c->{verdict}, ok => $c->{ok}, directive => $c->{directive}, reason => $c->{reason},
           expectations => [ map { my $e = $_; +{ map { ($_ => $e->{$_}) } qw(label expected observed tolerance unit) } } @{ $c->{expectations} } ],
           evidence => $c->{evidence}, exception => $c->{exception}, log_line => $c->{line} }
    } @{ $run->{checks} };
    my %machine = map { defined $h->{$_} ? ($_ => $h->{$_}) : () }
        qw(vendor family model stepping signature microarchitecture brand hypervisor pmu_kind pmu_gp_counters
           pmu_gp_width pmu_fixed_counters pmu_lines pmu_emulated pmu_cores apic_mode tsc_khz tsc_source cpus_online
           cpus_found cpu_source bringup_mode bringup_us topology_source);
    $machine{topology} = $run->{topology};
    return {
        schema => "pmuboot-report/$SCHEMA_VERSION",
        run => { name => $run->{name}, log => $run->{file}, version => $h->{version}, verdict => $run->{verdict},
                 complete => $run->{complete}, counts => $run->{counts}, threads => $run->{threads},
                 boot => { loader => $h->{loader}, protocol => $h->{protocol}, cmdline => $h->{cmdline} },
                 options => $h->{options}, stream => $run->{stream}, never_ran => $run->{never_ran},
                 console_noise => { lines => $run->{noise_count}, first => $run->{noise} },
                 warnings => $run->{warnings} // [], comments => $run->{comments} },
        machine => \%machine,
        checks => \@checks,
    };
}

sub json_report {
    my ($run) = @_;
    return JSON::PP->new->utf8(0)->canonical->pretty->encode(run_record($run));
}

1;
