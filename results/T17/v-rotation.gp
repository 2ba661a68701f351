# v-rotation.gp - written by akm from the CSV files in this folder.
# Re-render v-rotation.png and v-rotation.svg from inside this folder:  gnuplot v-rotation.gp
set datafile separator ','
set datafile missing NaN
set title 'T17 AdamW v̂_{2j} at t = 400: unchanged by the rotation at fixed diagonal'
set xlabel 'coordinate j (j = 1,2 and 5,6 are the rotated planes)'
set ylabel 'E[v̂_{ij}]'
set grid
set key outside top left horizontal
set xrange [0.5:8.5]
set yrange [0:*]
set key inside top right vertical
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'v-rotation.png'
plot 'data_v_row.csv' every ::1 using 3:(strcol(1) eq 'Σ' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'keys with Σ', \
     'data_v_row.csv' every ::1 using 3:(strcol(1) eq 'Σ''' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'keys with Σ'' = RΣR^T', \
     'data_v_row.csv' every ::1 using 2:(strcol(1) eq 'Σ' ? $4 : NaN) with lines lw 2 title 'E[δ_i^2]Σ_{jj}'
set terminal svg size 900,600 dynamic enhanced
set output 'v-rotation.svg'
replot
unset output
