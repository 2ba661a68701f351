# mixture-components.gp - written by akm from the CSV files in this folder.
# Re-render mixture-components.png and mixture-components.svg from inside this folder:  gnuplot mixture-components.gp
set datafile separator ','
set datafile missing NaN
set title 'T16 one-step contraction along each component''s top spike b_c, relative to the strongest direction'
set xlabel 'mixture component'
set ylabel 'b_c^TSb_c / λ_{max}(S),  S = Σ̂_{mix} or Σ_{mix}'
set grid
set key outside top left horizontal
set xrange [-0.5:2.5]
set yrange [0:1.1]
set linetype 1 lc rgb '#1b9e77'
set linetype 2 lc rgb '#d95f02'
set xtics ("s=100 (identity)" 0, "s=1 (reverse)" 1, "s=10 (random)" 2)
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'mixture-components.png'
plot 'data_components.csv' every ::1 using 3:(strcol(1) eq 'normalized' ? $7 : NaN):8 with yerrorbars pt 7 ps 0.8 title 'normalized measured', \
     'data_components.csv' every ::1 using 3:(strcol(1) eq 'raw' ? $7 : NaN):8 with yerrorbars pt 7 ps 0.8 title 'raw measured', \
     'data_components.csv' every ::1 using 3:(strcol(1) eq 'normalized' ? $6 : NaN) with points pt 6 ps 2.5 lw 1.5 lc rgb '#1b9e77' title 'normalized predicted', \
     'data_components.csv' every ::1 using 3:(strcol(1) eq 'raw' ? $6 : NaN) with points pt 6 ps 2.5 lw 1.5 lc rgb '#d95f02' title 'raw predicted'
set terminal svg size 900,600 dynamic enhanced
set output 'mixture-components.svg'
replot
unset output
