# mup-step-slopes-muon.gp - written by akm from the CSV files in this folder.
# Re-render mup-step-slopes-muon.png and mup-step-slopes-muon.svg from inside this folder:  gnuplot mup-step-slopes-muon.gp
set datafile separator ','
set datafile missing NaN
set title 'T13 Muon pair: hidden-layer RMS(ΔW x) width slope per step (AK-Muon − Muon = 0: inherited rule)'
set xlabel 'training step'
set ylabel 'd log RMS(ΔW x) / d log n'
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'mup-step-slopes-muon.png'
plot 'data_coord_muon_step_slopes.csv' every ::1 using 2:(strcol(1) eq 'ak-muon' ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'ak-muon', \
     'data_coord_muon_step_slopes.csv' every ::1 using 2:(strcol(1) eq 'muon' ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'muon', \
     'data_coord_muon_step_slopes.csv' every ::1 using 2:(strcol(1) eq 'adamw' ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'adamw', \
     0 title 'collapse' dt 2, \
     -0.5 title 'n^{-1/2}' dt 3
set terminal svg size 900,600 dynamic enhanced
set output 'mup-step-slopes-muon.svg'
replot
unset output
