# PmuBoot::Report::Text: the run's summary on stdout (pmuboot-report without an output option).
package PmuBoot::Report::Text;
use strict;
use utf8;
use warnings;
use Exporter 'import';
use PmuBoot::Report::Common qw(counts_text machine_lines);
our @EXPORT_OK = qw(summary_text);

sub summary_text {
    my ($run) = @_;
    my $t = "$run->{name}: " . uc($run->{verdict}) . " (" . counts_text($run) . ")\n";
    $t .= "  $_->[0]: $_->[1]\n" for machine_lines($run);
    $t .= "  incomplete: " . join('; ', @{ $run->{stream}{problems} }) . "\n" unless $run->{complete};
    $t .= "  never ran: " . scalar(@{ $run->{never_ran} }) . " known checks\n" if @{ $run->{never_ran} };
    $t .= "  failed: $_->{name}\n" for grep { $_->{verdict} eq 'fail' } @{ $run->{checks} };
    $t .= "  console lines not from pmuboot: $run->{noise_count}\n" if $run->{noise_count};
    return $t;
}

1;
