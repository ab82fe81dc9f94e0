# PmuBoot::Report::Kcidb: KernelCI's KCIDB records of a run (--kcidb), schema v5.3 (docs/kcidb.md).
package PmuBoot::Report::Kcidb;
use strict;
use utf8;
use warnings;
use Exporter 'import';
use JSON::PP ();
use PmuBoot::Log qw(numeric);
our @EXPORT_OK = qw(kcidb_report);

# KernelCI's results database (KCIDB I/O schema v5.3, docs/kcidb.schema.v5.3.json): the image is the checkout and the
# build, each check on each thread a test. KCIDB has no expected failure: a TODO (a known platform deviation, an
# inconclusive measurement) completed without judging the code, which is DONE ("the test completed and had not
# reported the status of the tested code"), its reason in `comment` and `misc`.
my %KCIDB_STATUS = (pass => 'PASS', fail => 'FAIL', skip => 'SKIP', todo => 'DONE', todo_passed => 'PASS');

sub kcidb_path_part { my $s = shift; $s =~ s/[^A-Za-z0-9_-]/_/g; return $s }

sub kcidb_report {
    my ($run, $origin) = @_;
    my $h = $run->{header};
    my $version = $h->{version} // 'unknown';
    my $checkout_id = "$origin:pmuboot-$version";
    my $build_id = "$checkout_id:image";
    my $run_id = "$origin:$run->{name}";
    my $machine = join ' ', grep { defined && length } ($h->{vendor}, $h->{family} && "family $h->{family}",
        $h->{model} && "model $h->{model}", $h->{brand} && "($h->{brand})", $h->{hypervisor} && "under $h->{hypervisor}");
    my @tests;
    my $excerpt = sub {
        my $c = shift;
        my $t = join "\n", $c->{raw}, @{ $c->{yaml} // [] };
        return length $t > 16384 ? substr($t, 0, 16380) . "\n..." : $t;
    };
    for my $c (@{ $run->{checks} }) {
        my $path = join '.', 'pmuboot', map { kcidb_path_part($_) } $c->{suite}, $c->{check},
                                              defined $c->{cpu} ? ("cpu$c->{cpu}") : ();
        my %t = (id => "$run_id:$path", build_id => $build_id, origin => $origin, path => $path,
                 status => $KCIDB_STATUS{ $c->{verdict} } // 'ERROR', log_excerpt => $excerpt->($c),
                 environment => { comment => $machine, misc => { cpu => $c->{cpu}, emulated_pmu =>
                                  $h->{pmu_emulated} ? JSON::PP::true : JSON::PP::false } },
                 misc => { verdict => $c->{verdict}, tap_number => $c->{number}, log_line => $c->{line} });
        $t{comment} = "$c->{directive}: $c->{reason}" if defined $c->{reason};
        $t{misc}{reason} = $c->{reason} if defined $c->{reason};
        # The first figure with a unit, where the check measured one.
        for my $e (@{ $c->{expectations} }) {
            my $v = numeric($e->{observed});
            next unless defined $v && defined $e->{unit};
            $t{number} = { value => $v, unit => $e->{unit} };
            $t{misc}{number_label} = $e->{label};
            last;
        }
        push @tests, \%t;
    }
    # A cut run: the checks it never ran are MISS (the harness, not the code, is unknown).
    for my $n (@{ $run->{never_ran} // [] }) {
        my ($cpu, $suite, $check) = $n =~ m{^cpu(\d+)/([^/]+)/(.+)$} or next;
        my $path = join '.', 'pmuboot', map { kcidb_path_part($_) } $suite, $check, "cpu$cpu";
        push @tests, { id => "$run_id:$path", build_id => $build_id, origin => $origin, path => $path, status => 'MISS',
                       comment => 'never ran: the stream stopped before it' };
    }
    push @tests, { id => "$run_id:pmuboot", build_id => $build_id, origin => $origin, path => 'pmuboot',
                   status => $run->{verdict} eq 'pass' ? 'PASS' : $run->{verdict} eq 'fail' ? 'FAIL' : 'ERROR',
                   comment => $run->{complete} ? "$run->{counts}{passed} passed, $run->{counts}{failed} failed, "
                                                 . "$run->{counts}{skipped} skipped"
                                               : "incomplete: " . join('; ', @{ $run->{stream}{problems} }),
                   environment => { comment => $machine },
                   misc => { counts => $run->{counts}, complete => $run->{complete}, cmdline => $h->{cmdline} } };
    my $doc = {
        version => { major => 5, minor => 3 },
        checkouts => [ { id => $checkout_id, origin => $origin, tree_name => 'pmuboot', git_commit_name => $version,
                         valid => JSON::PP::true } ],
        builds => [ { id => $build_id, checkout_id => $checkout_id, origin => $origin, architecture => 'x86_64',
                      config_name => 'pmuboot', status => 'PASS', comment => "pmuboot $version" } ],
        tests => \@tests,
    };
    return JSON::PP->new->utf8(0)->canonical->pretty->encode($doc);
}

1;
