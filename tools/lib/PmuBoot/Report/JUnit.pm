# PmuBoot::Report::JUnit: JUnit XML (--junit): TAP::Formatter::JUnit's testsuites, one per CPU, completed with the
# checks' classnames, skips and evidence, and the run's own testcase.
package PmuBoot::Report::JUnit;
use strict;
use utf8;
use warnings;
use Exporter 'import';
use TAP::Parser;
use PmuBoot::Log qw(fatal numeric);
our @EXPORT_OK = qw(junit_report);

sub junit_report {
    my ($run) = @_;
    eval { require TAP::Formatter::JUnit; require XML::LibXML; 1 }
        or fatal("--junit needs TAP::Formatter::JUnit and XML::LibXML (apt-get install libtap-formatter-junit-perl libxml-libxml-perl)");
    # One TAP stream per group (global checks, then each CPU), renumbered; TAP::Formatter::JUnit turns each into
    # a <testsuite>. Its output is then completed with DOM edits: classname, <skipped>, evidence.
    my (%groups, @order);
    for my $c (@{ $run->{checks} }) {
        my $g = defined $c->{cpu} ? "cpu$c->{cpu}" : 'global';
        push @order, $g unless $groups{$g};
        push @{ $groups{$g} }, $c;
    }
    my $xml = '';
    open my $fh, '>', \$xml or die;
    local $ENV{ALLOW_PASSING_TODOS} = 1;
    my $formatter = TAP::Formatter::JUnit->new({ stdout => $fh });
    for my $g (@order) {
        my $n = 0;
        my $tap = "TAP version 13\n" . join('', map {
            $n++;
            my $d = $_->{directive} ? " # $_->{directive}" . (defined $_->{reason} ? " $_->{reason}" : '') : '';
            ($_->{ok} ? 'ok' : 'not ok') . " $n - " . ($_->{check}) . "$d\n"
        } @{ $groups{$g} }) . "1..$n\n";
        my $parser = TAP::Parser->new({ tap => $tap });
        my $session = $formatter->open_test($g, $parser);
        while (my $r = $parser->next) { $session->result($r) }
        $session->close_test;
    }
    $formatter->summary(undef);
    close $fh;
    $xml = '<testsuites/>' if $xml !~ /\S/;
    my $doc = XML::LibXML->load_xml(string => $xml);
    my $root = $doc->documentElement;
    $root->setAttribute(name => "pmuboot $run->{name}");
    my @suites = $root->findnodes('testsuite');
    for my $k (0 .. $#suites) {
        my $s = $suites[$k];
        my $g = $order[$k];
        $s->setAttribute(name => $g);
        my $skipped = 0;
        my @cases = $s->findnodes('testcase');
        for my $i (0 .. $#cases) {
            my $c = $groups{$g}[$i];
            my $tc = $cases[$i];
            $tc->setAttribute(name => $c->{check});
            $tc->setAttribute(classname => defined $c->{cpu} ? "cpu$c->{cpu}.$c->{suite}" : $c->{suite});
            $_->unbindNode for $tc->childNodes;
            my $evidence = join("\n", $c->{raw}, @{ $c->{yaml} // [] });
            if ($c->{verdict} eq 'fail') {
                my $f = $doc->createElement('failure');
                my ($first) = grep { agrees($_) == 0 } @{ $c->{expectations} };
                my $msg = $c->{exception} ? "exception $c->{exception}{name} at rip $c->{exception}{rip}"
                        : $first ? "$first->{label}: expected $first->{expected}, observed $first->{observed}"
                                 . (defined $first->{tolerance} ? ", tolerance $first->{tolerance}" : '')
                        : $c->{directive} ? "not ok with $c->{directive}: " . ($c->{reason} // '')
                        : 'not ok';
                $f->setAttribute(message => $msg);
                $f->setAttribute(type => $c->{exception} ? 'exception' : 'check');
                $f->appendChild($doc->createTextNode($evidence));
                $tc->appendChild($f);
            } elsif ($c->{verdict} eq 'skip' || $c->{verdict} eq 'todo') {
                my $sk = $doc->createElement('skipped');
                $sk->setAttribute(message => ($c->{verdict} eq 'todo' ? 'TODO (expected failure): ' : '') . ($c->{reason} // ''));
                $tc->appendChild($sk);
                $skipped++;
            }
            if ($c->{verdict} ne 'fail' && @{ $c->{yaml} // [] }) {
                my $so = $doc->createElement('system-out');
                $so->appendChild($doc->createTextNode(($c->{verdict} eq 'todo_passed' ? "TODO passed unexpectedly\n" : '') . $evidence));
                $tc->appendChild($so);
            }
        }
        $s->setAttribute(skipped => $skipped);
        $s->setAttribute(errors => 0);
        $s->setAttribute(failures => scalar grep { $_->{verdict} eq 'fail' } @{ $groups{$g} });
        $s->setAttribute(tests => scalar @cases);
    }
    # The run itself: complete or not, and what never ran.
    my $rs = $doc->createElement('testsuite');
    $rs->setAttribute(name => 'run');
    my $tc = $doc->createElement('testcase');
    $tc->setAttribute(name => 'stream_complete');
    $tc->setAttribute(classname => 'run');
    my $fail = 0;
    unless ($run->{complete}) {
        my $e = $doc->createElement('error');
        $e->setAttribute(message => join('; ', @{ $run->{stream}{problems} }));
        $e->setAttribute(type => 'incomplete');
        $e->appendChild($doc->createTextNode(stopped_text($run)));
        $tc->appendChild($e);
        $fail = 1;
    }
    my $so = $doc->createElement('system-out');
    $so->appendChild($doc->createTextNode(join("\n", map { "# $_" } @{ $run->{comments} })));
    $tc->appendChild($so);
    $rs->appendChild($tc);
    $rs->setAttribute(tests => 1);
    $rs->setAttribute(failures => 0);
    $rs->setAttribute(errors => $fail);
    $rs->setAttribute(skipped => 0);
    $root->insertBefore($rs, $root->firstChild);
    my %tot = (tests => 0, failures => 0, errors => 0, skipped => 0);
    for my $s ($root->findnodes('testsuite')) { $tot{$_} += $s->getAttribute($_) for keys %tot }
    $root->setAttribute($_ => $tot{$_}) for sort keys %tot;
    my $out = $doc->toString(1);
    utf8::decode($out) unless utf8::is_utf8($out);
    return $out;
}

sub agrees {
    my ($e) = @_;
    my ($x, $o, $t) = map { numeric($_) } @$e{qw(expected observed tolerance)};
    # 1 agrees, 0 does not, -1 cannot tell (a described expectation such as "<= initial count").
    return abs($o - $x) <= $t ? 1 : 0 if defined $x && defined $o && defined $t;
    return $x == $o ? 1 : 0 if defined $x && defined $o && ($e->{tolerance} // '') =~ /^(?:exact|0)$/;
    return -1;
}

sub stopped_text {
    my ($run) = @_;
    my $st = $run->{stream};
    my $t = "The stream stopped at log line $st->{last_line}";
    $t .= ", after check $st->{last_check}" if $st->{last_check};
    $t .= ".\n" . join("\n", @{ $st->{problems} }) . "\n";
    my $n = @{ $run->{never_ran} };
    $t .= $n ? "$n checks never ran (checks seen on one CPU but not on another online CPU; suites after the cut "
             . "are not known):\n" . join("\n", map { "  $_" } @{ $run->{never_ran} }) . "\n"
             : "No per-CPU check is known to be missing; suites after the cut are not known.\n";
    return $t;
}

1;
