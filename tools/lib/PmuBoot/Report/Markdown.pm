# PmuBoot::Report::Markdown: the run's summary for a ticket or a wiki (--markdown).
package PmuBoot::Report::Markdown;
use strict;
use utf8;
use warnings;
use Exporter 'import';
use PmuBoot::Report::Common qw(counts_text machine_lines grouped cpu_list md_escape min);
our @EXPORT_OK = qw(markdown_report);

sub markdown_report {
    my ($run) = @_;
    my $icon = { pass => 'PASS', fail => 'FAIL', incomplete => 'INCOMPLETE' }->{ $run->{verdict} };
    my $m = "# pmuboot report: " . md_escape($run->{name}) . "\n\n**$icon** — " . counts_text($run) . "\n\n";
    unless ($run->{complete}) {
        $m .= "**The run is incomplete:** " . md_escape(join('; ', @{ $run->{stream}{problems} })) . ". "
            . "Last check: `" . ($run->{stream}{last_check} // 'none') . "` (log line $run->{stream}{last_line}). "
            . scalar(@{ $run->{never_ran} }) . " known checks never ran"
            . (@{ $run->{never_ran} } ? ": " . join(', ', map { "`$_`" } @{ $run->{never_ran} }[0 .. min(19, $#{ $run->{never_ran} })])
               . (@{ $run->{never_ran} } > 20 ? ', …' : '') : '') . ".\n\n";
    }
    $m .= "## Machine\n\n| | |\n| --- | --- |\n";
    $m .= "| $_->[0] | " . md_escape($_->[1]) . " |\n" for machine_lines($run);
    $m .= "\n## Suites\n\n| suite | pass | fail | skip | TODO |\n| --- | ---: | ---: | ---: | ---: |\n";
    my (%s, @so);
    for my $c (@{ $run->{checks} }) {
        push @so, $c->{suite} unless $s{ $c->{suite} };
        $s{ $c->{suite} }{ $c->{verdict} =~ /^todo/ ? 'todo' : $c->{verdict} }++;
    }
    for my $su (@so) { $m .= "| $su | " . join(' | ', map { $s{$su}{$_} // 0 } qw(pass fail skip todo)) . " |\n" }
    my @f = grep { $_->{verdict} eq 'fail' } @{ $run->{checks} };
    $m .= "\n## Failures (" . scalar(@f) . ")\n\n";
    $m .= "None.\n" unless @f;
    for my $c (@f) {
        $m .= "### `$c->{name}`\n\n```yaml\n" . join("\n", $c->{raw}, @{ $c->{yaml} // [] }) . "\n```\n\n";
    }
    my @todo = grouped($run, 'todo');
    $m .= "\n## Known deviations and expected failures (TODO)\n\n";
    $m .= "None.\n" unless @todo;
    $m .= "- `$_->[0]{id}` on " . cpu_list(@$_) . (defined $_->[0]{cpu} ? '' : 'the boot CPU') . ": " . md_escape($_->[0]{reason}) . "\n" for @todo;
    my @skip = grouped($run, 'skip');
    $m .= "\n## Skipped (" . scalar(grep { $_->{verdict} eq 'skip' } @{ $run->{checks} }) . ")\n\n";
    $m .= "- `$_->[0]{id}` on " . (cpu_list(@$_) || 'the boot CPU') . ": " . md_escape($_->[0]{reason}) . "\n" for @skip;
    $m .= "\n_Console lines not from pmuboot (firmware, BMC): $run->{noise_count}; lines before `TAP version 13`: $run->{pre_lines}._\n";
    return $m;
}

1;
