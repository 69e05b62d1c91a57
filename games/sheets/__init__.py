"""Round sheets on the server: every seat answers once a round, all at once, from a sheet filled
in with a suggestion (``powergrid.sheet``). A sheet's lines are the seat's plans (``Plan`` rows
with ``sheet`` set), run by the plans' runner after every move; their moves are logged with
source ``sheet``. ``document`` turns a sheet into the API's and the page's document and back
(with the refusals that name the line), ``reasons`` words a line's reason, ``services`` reads
and answers a seat's sheet. Secret, as plans: only the seat's owner ever reads its sheet.
"""
