# PmuBoot::Log: read one pmuboot serial log into one structure, the run (every TAP tool of tools/ reads logs here).
#
# A serial capture comes as it comes: CR LF line ends, ANSI escapes, firmware and GRUB noise before
# "TAP version 13", lines of a BMC or terminal server interleaved with the stream (inside YAML blocks too), a
# timestamp prefix on every line (ipmitool/conserver style), several boots (a machine reset), a run cut short.
# This module owns the cleaning (clean_line), the stream's line grammar (%RE) and the reading of a whole run
# (load_run): checks with their verdicts (TAP::Parser), YAML evidence, folded lines cpu[LIST]/suite/check
# expanded to one check per thread, the header comments (machine, options, topology), the plan and the summary
# line, completeness and the checks a cut run never ran. The run's fields are documented by its JSON form
# (docs/report-json.md, PmuBoot::Report::Json).
#
# Bad input ends the program: "PROG: message" on stderr, exit status 2 (fatal), PROG being the program's name.
package PmuBoot::Log;
use strict;
use utf8;
use warnings;
use Exporter 'import';
use JSON::PP ();
use TAP::Parser;

our @EXPORT_OK = qw(fatal slurp decode_text read_log clean_line clean_lines stream_start load_run load_boots numeric cpu_ranges %RE);

our $PROG = $0 =~ s{.*/}{}r;

sub fatal { print STDERR "$PROG: $_[0]\n"; exit 2 }

# The stream's line grammar (docs/checklist.md), on cleaned lines.
our %RE = (
    version    => qr/^TAP version 13\s*$/,
    test       => qr/^(not )?ok\b\s*(\d+)?\s*(?:-\s*)?(.*)$/,
    yaml_start => qr/^  ---\s*$/,
    yaml_end   => qr/^  \.\.\.\s*$/,
    yaml_line  => qr/^  (\S.*)$/,
    plan       => qr/^1\.\.(\d+)/,
    bail       => qr/^Bail out!\s*(.*)$/,
    summary    => qr/^(\d+) passed, (\d+) failed, (\d+) skipped\s*$/,
    comment    => qr/^#(.*)$/,
    # what ends a YAML block cut short (no "  ..."): the stream's next line
    after_yaml => qr/^(?:not )?ok\b|^1\.\.\d+|^# |^Bail out!/,
    # a per-CPU check's name: cpuN/suite/check, or a folded line's cpu[LIST]/suite/check (docs/checklist.md)
    cpu_check  => qr{^cpu(\d+)/([^/\s]+)/(\S+)},
    folded     => qr{^cpu\[([0-9,-]+)\]/([^/\s]+)/(\S+)},
    run_once   => qr{^([^/\s]+)/(\S+)},
);

# The bytes of FILE ("-": standard input), or fatal.
sub slurp {
    my ($file) = @_;
    my $data;
    if ($file eq '-') {
        local $/;
        $data = <STDIN>;
    } else {
        fatal("'$file': no such file") unless -e $file;
        fatal("'$file' is a directory, not a log") if -d $file;
        open my $fh, '<:raw', $file or fatal("cannot read '$file': $!");
        local $/;
        $data = <$fh>;
        fatal("cannot read '$file': $!") unless defined $data;
    }
    return $data // '';
}

# Serial logs are bytes: decode UTF-8 where it is valid, Latin-1 otherwise.
sub decode_text {
    my ($data) = @_;
    return eval { my $c = $data; utf8::decode($c) ? $c : undef } // do { my $c = $data; utf8::upgrade($c); $c };
}

# The text of the log FILE ("-": standard input, not a terminal).
sub read_log {
    my ($file) = @_;
    fatal('standard input is a terminal: give a log file or pipe one in') if $file eq '-' && -t STDIN;
    return decode_text(slurp($file));
}

# Clean one physical line: ANSI/VT100 escapes, carriage returns (a bare CR inside a line means the terminal
# overwrote what came before it: keep what follows), other control characters.
sub clean_line {
    my ($l) = @_;
    $l =~ s/\e\[[0-9;?]*[ -\/]*[@-~]//g;
    $l =~ s/\e\][^\a\e]*(?:\a|\e\\)//g;
    $l =~ s/\e[()][0-9A-Za-z]//g;
    $l =~ s/\e[=>78cDEHM]//g;
    $l =~ s/\r+$//;
    $l =~ s/^.*\r// if $l =~ /\r/;
    $l =~ s/[\x00-\x08\x0b-\x1f\x7f]//g;
    return $l;
}

# The cleaned lines of a log's text.
sub clean_lines {
    my ($text) = @_;
    my @phys = split /\n/, $text, -1;
    pop @phys if @phys && $phys[-1] eq '';
    return map { clean_line($_) } @phys;
}

# The index of the first ('first') or last ('last') "TAP version 13" line in LINES (-1: none), and how many there are.
# With PREFIXED, the version line may follow a prefix (a console server's, a timestamp).
sub stream_start {
    my ($lines, $which, $prefixed) = @_;
    my ($start, $n) = (-1, 0);
    for my $i (0 .. $#$lines) {
        next unless $prefixed ? $lines->[$i] =~ /TAP version 13\s*$/ : $lines->[$i] =~ $RE{version};
        $n++;
        $start = $i if $which eq 'last' || $start < 0;
    }
    return ($start, $n);
}

# A capture tool's timestamp at the start of a line: "2024-05-01 12:00:00.123 ", "[2024-05-01T12:00:00Z] ".
my $TS_RE = qr/^\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?[ \t]?/;

# The run of the log FILE, named NAME (default: the file's name); TEXT, when given, is the log's text already
# read (a run from QR codes). Fatal when there is no TAP stream in it.
sub load_run {
    my ($file, $name, $text) = @_;
    $text //= read_log($file);
    my @lines = clean_lines($text);
    # Each boot prints its own stream: after a machine reset (suite reset, or the watchdog after a hang of the boot
    # CPU) the run's stream is the last boot's, as run-qemu.sh judges it. A prefix before the version line (a
    # console server's) is allowed, and stripped from every line.
    my ($start, $boots) = stream_start(\@lines, 'last', 1);
    fatal("'$file': no TAP stream in it (no 'TAP version 13' line" .
          (@lines ? ", " . scalar(@lines) . " lines read" : ", the file is empty") . ")") if $start < 0;
    # A capture tool's timestamp on every line: strip it where the version line has one.
    my $ts = $lines[$start] =~ $TS_RE ? 1 : 0;
    my $prefix = '';
    if (!$ts && $lines[$start] =~ /^(.*?)TAP version 13\s*$/) { $prefix = $1 }

    my $run = {
        name => defined $name ? $name : ($file eq '-' ? 'stdin' : ($file =~ s{.*/}{}r)),
        file => $file, header => { options => {}, comments => [] }, checks => [], noise => [],
        noise_count => 0, pre_lines => $start, topology => [], comments => [],
    };
    push @{ $run->{warnings} }, sprintf("%d boots in this log (machine resets): the report is of the last, from line %d",
                                        $boots, $start + 1) if $boots > 1;
    my (@tap, $cur, $in_yaml, $summary, $plan, $bail);
    my $last_tap_line = $start + 1;
    for my $i ($start .. $#lines) {
        my $l = $lines[$i];
        $l =~ s/$TS_RE// if $ts;
        $l = substr($l, length $prefix) if length $prefix && substr($l, 0, length $prefix) eq $prefix;
        my $lineno = $i + 1;
        if ($in_yaml) {
            if ($l =~ $RE{yaml_end}) { $in_yaml = 0; $last_tap_line = $lineno; next }
            if ($l =~ $RE{yaml_line}) { push @{ $cur->{yaml} }, $l; yaml_entry($cur, $1); $last_tap_line = $lineno; next }
            if ($l =~ /^\s*$/) { next }
            if ($l =~ $RE{after_yaml}) { $in_yaml = 0 }   # block cut short
            else { noise($run, $lineno, $l); next }
        }
        if ($l =~ $RE{version}) {
            if (@tap) { push @{ $run->{warnings} }, "a second 'TAP version 13' at line $lineno (a reboot?): reading stops there"; last }
            push @tap, $l; next;
        }
        if ($l =~ $RE{test}) {
            $cur = new_check($l, $lineno, scalar(@{ $run->{checks} }) + 1);
            push @{ $run->{checks} }, $cur;
            push @tap, $l; $last_tap_line = $lineno; next;
        }
        if ($l =~ $RE{yaml_start} && $cur && !$cur->{yaml_done}) { $in_yaml = 1; $cur->{yaml_done} = 1; $cur->{yaml} = []; $last_tap_line = $lineno; next }
        if ($l =~ $RE{plan}) { $plan = $1; push @tap, $l; $last_tap_line = $lineno; next }
        if ($l =~ $RE{bail}) { $bail = $1; push @tap, $l; $last_tap_line = $lineno; next }
        if ($l =~ $RE{summary}) { $summary = [$1, $2, $3]; $last_tap_line = $lineno; next }
        if ($l =~ $RE{comment}) { header_comment($run, $1); push @tap, $l; $last_tap_line = $lineno; next }
        next if $l =~ /^\s*$/;
        next if $l =~ /^pmuboot-result: /;   # monitor=lava's line for LAVA's monitors: the verdict above, again
        noise($run, $lineno, $l);
    }
    # TAP::Parser judges the lines (directives, ok-ness, plan); the YAML was read above.
    my $parser = do {
        local $SIG{__WARN__} = sub { };
        TAP::Parser->new({ tap => join("\n", @tap) . "\n" });
    };
    my @results;
    eval { while (my $r = $parser->next) { push @results, $r if $r->is_test } 1 }
        or push @{ $run->{warnings} }, "TAP::Parser: " . ($@ =~ s/ at \S+ line \d+.*//sr);
    for my $k (0 .. $#results) {
        my $c = $run->{checks}[$k] or last;
        my $r = $results[$k];
        $c->{number} = $r->number + 0;
        my $desc = $r->description // '';
        $desc =~ s/^-\s*//;
        $desc =~ s/\s+$//;
        $c->{name} = $desc;
        $c->{ok} = $r->is_actual_ok ? JSON::PP::true : JSON::PP::false;
        if ($r->has_skip) { $c->{directive} = 'SKIP'; $c->{reason} = $r->explanation }
        elsif ($r->has_todo) { $c->{directive} = 'TODO'; $c->{reason} = $r->explanation }
        $c->{verdict} = $r->has_todo ? ($r->is_actual_ok ? 'todo_passed' : 'todo')
                      : $r->has_skip ? ($r->is_actual_ok ? 'skip' : 'fail')
                      : $r->is_actual_ok ? 'pass' : 'fail';
        if ($desc =~ $RE{cpu_check}) { @$c{qw(cpu suite check)} = ($1 + 0, $2, $3) }
        elsif ($desc =~ $RE{folded}) { @$c{qw(cpu suite check folded)} = (undef, $2, $3, $1) }
        elsif ($desc =~ $RE{run_once}) { @$c{qw(cpu suite check)} = (undef, $1, $2) }
        else { @$c{qw(cpu suite check)} = (undef, '(none)', $desc) }
        $c->{id} = "$c->{suite}/$c->{check}";   # the check's name without its CPU
    }
    $#{ $run->{checks} } = $#results if @{ $run->{checks} } > @results;
    # The stream's own counts are of its lines (a folded line is one test point).
    my %count = (pass => 0, fail => 0, skip => 0, todo => 0, todo_passed => 0);
    $count{ $_->{verdict} }++ for @{ $run->{checks} };
    my $lines = scalar @{ $run->{checks} };
    # A folded line, cpu[LIST]/suite/check (docs/checklist.md "Folded lines"), is the verdict of every thread it
    # lists: reports carry one check per thread, with the line's reason and evidence (ranges where the threads'
    # numbers differed), so a folded stream gives the same grid, JUnit and JSON records as an unfolded one.
    @{ $run->{checks} } = map {
        my $c = $_;
        !defined $c->{folded} ? $c : map {
            my %t = %$c;
            $t{cpu} = $_;
            $t{name} = "cpu$_/$c->{suite}/$c->{check}";
            if ($c->{exception}) {  # the thread's own exception record: its CPU and name, its own vector
                my %e = %{ $c->{exception} };
                @e{qw(cpu check)} = ($_, $t{name});
                $e{vector} = own_value($e{vector}, $_);
                $t{exception} = \%e;
            }
            \%t;
        } map { /^(\d+)-(\d+)$/ ? ($1 .. $2) : ($_ + 0) } split /,/, $c->{folded};
    } @{ $run->{checks} };
    # A SKIP printed short, "HEAD: as cpuJ" (docs/checklist.md), has cpuJ's reason for the same check: reports
    # carry the whole evidence, and group the threads by it.
    my %by_cpu;
    $by_cpu{"$_->{cpu}/$_->{id}"} = $_ for grep { defined $_->{cpu} } @{ $run->{checks} };
    for my $c (@{ $run->{checks} }) {
        next unless ($c->{directive} // '') eq 'SKIP' && $c->{reason} =~ /^(.+): as cpu(\d+)$/;
        my ($head, $ref) = ($1, $by_cpu{"$2/$c->{id}"});
        $c->{reason} = $ref->{reason}
            if $ref && ($ref->{directive} // '') eq 'SKIP' && index($ref->{reason}, "$head:") == 0;
    }
    delete @$_{qw(yaml_done)} for @{ $run->{checks} };

    # Completeness and verdict: the stream's lines against its plan and summary; the counts reported are per thread.
    my %lc = (passed => $count{pass} + $count{todo} + $count{todo_passed}, failed => $count{fail}, skipped => $count{skip});
    %count = (pass => 0, fail => 0, skip => 0, todo => 0, todo_passed => 0);
    $count{ $_->{verdict} }++ for @{ $run->{checks} };
    $run->{counts} = { total => scalar @{ $run->{checks} }, passed => $count{pass} + $count{todo} + $count{todo_passed},
                       failed => $count{fail}, skipped => $count{skip}, todo => $count{todo}, todo_passed => $count{todo_passed} };
    my @why;
    push @why, "Bail out! $bail" if defined $bail;
    push @why, "no plan '1..N': the stream stops after line $last_tap_line of the log" unless defined $plan;
    push @why, "plan 1..$plan but $lines checks reported" if defined $plan && $plan != $lines;
    push @why, "no summary line 'N passed, N failed, N skipped'" if defined $plan && !$summary && !defined $bail;
    if ($summary && !defined $bail) {
        my ($p, $f, $s) = @$summary;
        push @why, "summary line says $p passed, $f failed, $s skipped but the checks say "
                 . "$lc{passed} passed, $lc{failed} failed, $lc{skipped} skipped"
            if $p != $lc{passed} || $f != $lc{failed} || $s != $lc{skipped};
    }
    my $last = @{ $run->{checks} } ? $run->{checks}[-1] : undef;
    $run->{complete} = @why ? JSON::PP::false : JSON::PP::true;
    $run->{stream} = { plan => defined $plan ? $plan + 0 : undef, summary => $summary ? { passed => $summary->[0] + 0, failed => $summary->[1] + 0,
                       skipped => $summary->[2] + 0 } : undef, bail_out => $bail, problems => \@why,
                       first_line => $start + 1, last_line => $last_tap_line, lines_before_tap => $start,
                       last_check => $last ? "$last->{number} - $last->{name}" : undef };
    $run->{never_ran} = @why ? never_ran($run) : [];
    $run->{verdict} = $count{fail} ? 'fail' : @why ? 'incomplete' : 'pass';
    derive_machine($run);
    return $run;
}

# Every boot of the log FILE, as runs (load_run), in order: a log holds one stream per boot (suite reset, the
# watchdog), and a tool that must see what any boot printed (the ledger of each) reads them all. None when there
# is no TAP stream in it (a run that never booted has printed nothing to see); fatal when FILE cannot be read.
sub load_boots {
    my ($file) = @_;
    my $text = read_log($file);
    my @phys = split /^/m, $text;
    my @lines = clean_lines($text);
    my @starts = grep { $lines[$_] =~ /TAP version 13\s*$/ } 0 .. $#lines;
    push @starts, scalar @phys;
    return map { load_run($file, undef, join('', @phys[$starts[$_] .. $starts[$_ + 1] - 1])) } 0 .. $#starts - 1;
}

sub new_check {
    my ($raw, $lineno, $idx) = @_;
    return { raw => $raw, line => $lineno, expectations => [], evidence => [], exception => undef,
             directive => undef, reason => undef };
}

sub noise {
    my ($run, $lineno, $l) = @_;
    $run->{noise_count}++;
    push @{ $run->{noise} }, { line => $lineno, text => $l } if @{ $run->{noise} } < 20;
}

sub header_comment {
    my ($run, $c) = @_;
    my $h = $run->{header};
    $c =~ s/^ //;
    push @{ $run->{comments} }, $c;
    if    ($c =~ /^pmuboot (\S+)/ && !$h->{version}) { $h->{version} = $1 }
    elsif ($c =~ /^boot: (.*?) via (\S+?),/) { $h->{loader} = $1; $h->{protocol} = $2 }
    elsif ($c =~ /^cmdline: "(.*)"$/) { $h->{cmdline} = $1 }
    elsif ($c =~ /^options: (.*)$/) { for (split ' ', $1) { $h->{options}{$1} = $2 if /^([^=]+)=(.*)$/ } }
    elsif ($c =~ /^cpu: (\S+) family (0x[0-9a-f]+) model (0x[0-9a-f]+) stepping (0x[0-9a-f]+) \(signature (0x[0-9a-f]+)\)(?:: (.*))?$/i) {
        @$h{qw(vendor family model stepping signature microarchitecture)} = ($1, $2, $3, $4, $5, $6);
    }
    elsif ($c =~ /^brand: (.*)$/) { $h->{brand} = $1 }
    elsif ($c =~ /^hypervisor: (.*)$/) { $h->{hypervisor} = $1 }
    elsif ($c =~ /^pmu: emulated \(([^)]+)\)/) { $h->{pmu_emulated} = $1 }
    elsif ($c =~ /^apic: (\S+?)(?:;|$)(?:.*?tsc: (\d+) kHz(?: from (.*))?)?/) {
        $h->{apic_mode} = $1;
        $h->{tsc_khz} = $2 + 0 if defined $2;
        $h->{tsc_source} = $3 if defined $3;
    }
    elsif ($c =~ /^smp: (\d+) of (\d+) CPUs online(?: \(([^)]*)\))?(?:, (\S+) bring-up (\d+) us)?/) {
        @$h{qw(cpus_online cpus_found cpu_source bringup_mode)} = ($1 + 0, $2 + 0, $3, $4);
        $h->{bringup_us} = $5 + 0 if defined $5;
    }
    elsif ($c =~ /^smp: (.*)$/) { push @{ $h->{smp_notes} }, $1 }
    elsif ($c =~ /^  cpu(\d+)\s+(0x[0-9a-f]+)\s+(.*)$/i) {
        my @f = split ' ', $3;
        push @{ $run->{topology} }, { cpu => $1 + 0, apic_id => $2, package => $f[0], die => $f[1], tile => $f[2],
                                      module => $f[3], core => $f[4], smt => $f[5], core_type => $f[6] };
    }
    elsif ($c =~ /^topology/) { $h->{topology_source} = ($c =~ /\(([^)]*)\)/)[0] }
}

# A folded line's number that differed between its threads reads "MIN (cpuA) .. MAX (cpuB)": thread A's or B's
# own value; any other thread's is not in the stream (the range is kept).
sub own_value {
    my ($v, $cpu) = @_;
    return $v unless defined $v && $v =~ /^(\S+) \(cpu(\d+)\) \.\. (\S+) \(cpu(\d+)\)$/;
    return $2 == $cpu ? scalar_value($1) : $4 == $cpu ? scalar_value($3) : $v;
}

# One YAML line of a check: "label": {expected: X, observed: Y, tolerance: T[, unit: U]}, "key": "value",
# exception: {vector: ..., ...}.
sub yaml_entry {
    my ($c, $l) = @_;
    my ($key, $rest);
    if ($l =~ /^"((?:[^"\\]|\\.)*)":\s*(.*)$/) { ($key, $rest) = (unescape($1), $2) }
    elsif ($l =~ /^([A-Za-z_][\w ]*):\s*(.*)$/) { ($key, $rest) = ($1, $2) }
    else { push @{ $c->{evidence} }, { key => '', value => $l }; return }
    if ($rest =~ /^\{(.*)\}\s*$/) {
        my $m = flow_map($1);
        if ($key eq 'exception') {
            $c->{exception} = $m;
        } elsif (exists $m->{expected} || exists $m->{observed}) {
            push @{ $c->{expectations} }, { label => $key, expected => $m->{expected}, observed => $m->{observed},
                                            tolerance => $m->{tolerance}, unit => $m->{unit} };
        } else {
            push @{ $c->{evidence} }, { key => $key, value => JSON::PP->new->canonical->encode($m) };
        }
    } else {
        push @{ $c->{evidence} }, { key => $key, value => scalar_value($rest, 1) };
    }
}

sub unescape { my $s = shift; $s =~ s/\\(.)/$1/g; return $s }

sub scalar_value {
    my ($v, $as_string) = @_;
    $v =~ s/^\s+|\s+$//g;
    return unescape($1) if $v =~ /^"((?:[^"\\]|\\.)*)"$/;
    return $v if $as_string;
    return $v + 0 if $v =~ /^-?\d{1,15}$/ || $v =~ /^-?\d+\.\d+$/;
    return $v;
}

sub flow_map {
    my ($s) = @_;
    my %m;
    while ($s =~ /\G\s*([A-Za-z_]\w*)\s*:\s*("(?:[^"\\]|\\.)*"|[^,]*?)\s*(?:,|$)/gc) {
        $m{$1} = scalar_value($2);
    }
    return \%m;
}

sub numeric {
    my ($v) = @_;
    return undef unless defined $v;
    return $v + 0 if $v =~ /^-?\d+(?:\.\d+)?$/;
    no warnings 'portable';
    return hex($1) if $v =~ /^0x([0-9a-f]{1,13})$/i;
    return undef;
}

# Checks that never ran in a cut run: every per-CPU check seen on some CPU but missing on another CPU that
# was online, and (when the smp header counts more CPUs than reported any check) those CPUs' checks.
sub never_ran {
    my ($run) = @_;
    my (%ids, %have, %cpus);
    for my $c (@{ $run->{checks} }) {
        next unless defined $c->{cpu};
        $ids{ $c->{id} } //= scalar keys %ids;
        $have{"$c->{cpu}/$c->{id}"} = 1;
        $cpus{ $c->{cpu} } = 1;
    }
    $cpus{ $_->{cpu} } = 1 for @{ $run->{topology} };
    if (my $n = $run->{header}{cpus_online}) { $cpus{$_} = 1 for 0 .. $n - 1 }
    my @missing;
    for my $cpu (sort { $a <=> $b } keys %cpus) {
        for my $id (sort { $ids{$a} <=> $ids{$b} } keys %ids) {
            push @missing, "cpu$cpu/$id" unless $have{"$cpu/$id"};
        }
    }
    return \@missing;
}

sub derive_machine {
    my ($run) = @_;
    my $h = $run->{header};
    my ($disc) = grep { defined $_->{cpu} && $_->{cpu} == 0 && $_->{id} eq 'pmu_enum/discover' } @{ $run->{checks} };
    my @pmu;
    if ($disc) { push @pmu, $_->{value} for grep { $_->{key} =~ /^caps \d+$/ } @{ $disc->{evidence} } }
    $h->{pmu_lines} = \@pmu;
    for (@pmu) {
        $h->{pmu_kind} = $1 if /^pmu: kind (\S+?):/;
        ($h->{pmu_gp_counters}, $h->{pmu_gp_width}) = ($1 + 0, $2 + 0) if /^pmu: general-purpose counters: (\d+) .*?(\d+)-bit/;
        $h->{pmu_fixed_counters} = $1 + 0 if /^pmu: fixed counters: (\d+)/;
        $h->{pmu_fixed_counters} = 0 if /^pmu: fixed counters: none/;
    }
    $h->{pmu_kind} //= 'unknown' if !$disc;
    derive_pmu_cores($run);
    my %threads;
    $threads{ $_->{cpu} } = 1 for grep { defined $_->{cpu} } @{ $run->{checks} };
    $run->{threads} = [ sort { $a <=> $b } keys %threads ];
}

# The PMU of every thread from its own pmu_enum/discover evidence, threads grouped by kind of core and counters: on a
# hybrid part (a "pmu: hybrid:" line, docs/pmu-discovery.md) or whenever the threads differ, machine.pmu_cores lists
# each group with its CPUs, and pmu_cores_text says it in one line ("cpu0-1 Core (0x40), native model 0x000001: 8 GP
# (48-bit), 4 fixed (mask 0xf); ...").
sub derive_pmu_cores {
    my ($run) = @_;
    my $h = $run->{header};
    my (%group, @order, $hybrid);
    for my $c (sort { $a->{cpu} <=> $b->{cpu} } grep { defined $_->{cpu} && $_->{id} eq 'pmu_enum/discover' } @{ $run->{checks} }) {
        my %g = (core => 'not hybrid');
        my @lines = map { $_->{value} } grep { $_->{key} =~ /^caps \d+$/ } @{ $c->{evidence} };
        next unless @lines;
        for (@lines) {
            $g{kind} = $1 if /^pmu: kind (\S+?):/;
            @g{qw(gp_counters gp_mask gp_width)} = ($1 + 0, $2, $3 + 0) if /^pmu: general-purpose counters: (\d+) \(mask (0x[0-9a-f]+)\), (\d+)-bit/;
            @g{qw(fixed_counters fixed_mask)} = ($1 + 0, $2) if /^pmu: fixed counters: (\d+) \(mask (0x[0-9a-f]+)\)/;
            $g{fixed_counters} = 0 if /^pmu: fixed counters: none/;
            if (/^pmu: hybrid: this thread's core type is (.*)$/) { $g{core} = $1; $hybrid = 1 }
        }
        my $key = join '|', map { $g{$_} // '' } qw(core kind gp_counters gp_mask gp_width fixed_counters fixed_mask);
        push @order, $key unless $group{$key};
        $group{$key} //= { %g, lines => \@lines };
        push @{ $group{$key}{cpus} }, $c->{cpu};
    }
    return unless $hybrid || @order > 1;
    my @cores;
    for my $key (@order) {
        my $g = $group{$key};
        push @cores, { cpus => $g->{cpus}, core_type => $g->{core}, lines => $g->{lines},
                       map { defined $g->{$_} ? ($_ => $g->{$_}) : () } qw(kind gp_counters gp_mask gp_width fixed_counters fixed_mask) };
    }
    $h->{pmu_cores} = \@cores;
    $h->{pmu_cores_text} = join '; ', map {
        cpu_ranges($_->{cpus}) . " $_->{core_type}: "
            . join(', ', grep { defined } defined $_->{gp_counters} ? "$_->{gp_counters} GP ($_->{gp_width}-bit)" : undef,
                   defined $_->{fixed_counters} ? "$_->{fixed_counters} fixed" . ($_->{fixed_mask} ? " (mask $_->{fixed_mask})" : '') : undef,
                   !defined $_->{gp_counters} && $_->{kind} ? "kind $_->{kind}" : undef)
    } @cores;
}

# "cpu0-1,4" for (0, 1, 4).
sub cpu_ranges {
    my ($cpus) = @_;
    my @r;
    for my $c (@$cpus) {
        if (@r && $r[-1][1] == $c - 1) { $r[-1][1] = $c } else { push @r, [$c, $c] }
    }
    return 'cpu' . join(',', map { $_->[0] == $_->[1] ? $_->[0] : "$_->[0]-$_->[1]" } @r);
}

1;
